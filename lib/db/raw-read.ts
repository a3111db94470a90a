import type { Statement } from "better-sqlite3";
import pg from "pg";
import { postgresqlPool } from "@/lib/db";
import { readConnection } from "@/lib/db/read-connection";
import { positional, valuesFor } from "@/lib/db/raw-sql";
import { databaseProvider } from "@/lib/env";

/**
 * Raw reads for the few per-request hot paths where Prisma's per-query overhead would cost more
 * than the rest of the request (API key lookup, the key list), one SQL text for both databases:
 * identifiers double-quoted, parameters as `:name`, DateTime columns coming back as ISO-8601 strings and
 * Json columns as JSON text
 * (select no Boolean column: SQLite answers 0/1, PostgreSQL true/false). On SQLite it runs on the read-only connection (lib/db/read-connection.ts),
 * on PostgreSQL on the process's pool. Everything else goes through Prisma.
 */
export function rawRead<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
  if (databaseProvider() === "postgresql") return postgresqlRead<Row>(sql, params);
  try {
    return Promise.resolve(sqliteStatement(sql).all(params) as Row[]);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A DateTime column's text from a raw read, in the form the API writes (toISOString's): SQLite's
 * `2026-01-31T12:00:00.000+00:00` becomes `2026-01-31T12:00:00.000Z` without making a Date.
 */
export function isoTimestamp(text: string): string {
  return text.length === 29 && text.endsWith("+00:00") ? `${text.slice(0, 23)}Z` : new Date(text).toISOString();
}

const sqliteStatements = new Map<string, Statement>();

function sqliteStatement(sql: string): Statement {
  const connection = readConnection();
  let statement = sqliteStatements.get(sql);
  if (!statement || statement.database !== connection) {
    statement = connection.prepare(sql);
    sqliteStatements.set(sql, statement);
  }
  return statement;
}

// TIMESTAMP(3) (without time zone, as Prisma creates DateTime columns) holds UTC: read it as such,
// whatever the process's time zone, and hand it out as SQLite's ISO text does. A JSONB column (Prisma's
// Json) stays JSON text, as SQLite gives it: one form for the callers, parsed (and cached) by them.
const TIMESTAMP = 1114;
const JSONB = 3802;
const asText = (value: string) => value;
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === TIMESTAMP ? (value: string) => `${value.replace(" ", "T")}Z` : oid === JSONB ? asText : pg.types.getTypeParser(oid, format as "text"),
};

async function postgresqlRead<Row>(sql: string, params: Record<string, unknown>): Promise<Row[]> {
  const query = positional(sql, "postgresql");
  const values = valuesFor(query, params).map((value) => (value instanceof Date ? value.toISOString() : value));
  const text = query.text;
  const result = await postgresqlPool().query({ text, values, types });
  return result.rows as Row[];
}
