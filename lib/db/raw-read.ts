import type { Database, Statement } from "better-sqlite3";
import pg from "pg";
import { postgresqlPool } from "@/lib/db/postgresql";
import { readConnection } from "@/lib/db/read-connection";
import { positional, valuesFor } from "@/lib/db/raw-sql";
import { databaseProvider } from "@/lib/env";
import { immutable } from "@/lib/immutable";
import { tracedStatement } from "@/lib/observability/tracing";
import { processGlobal } from "@/lib/process-global";

/**
 * Raw reads for the few per-request hot paths where Prisma's per-query overhead would cost more
 * than the rest of the request (API key lookup, the key list), one SQL text for both databases:
 * identifiers double-quoted, parameters as `:name`, DateTime columns coming back as ISO-8601 strings and
 * Json columns as JSON text
 * (select no Boolean column: SQLite answers 0/1, PostgreSQL true/false). On SQLite it runs on the read-only connection (lib/db/read-connection.ts),
 * on PostgreSQL on the process's pool. Everything else goes through Prisma. SQLite rows are kept
 * while the database is unchanged (see sqliteCache), so they come back immutable (lib/immutable.ts).
 */
export async function rawRead<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Rows<Row>> {
  if (databaseProvider() === "postgresql") return postgresqlRead<Row>(sql, params);
  return sqliteRead(sql, params) as Rows<Row>;
}

export type Rows<Row> = readonly Readonly<Row>[];

/**
 * The rows of recent SQLite reads, kept while the database is unchanged. SQLite says so itself: the read
 * connection's `PRAGMA data_version` changes whenever any other connection (the service's writer, another
 * process) has committed since the last time it was asked, and this connection never writes. Each read
 * asks first (one prepared statement, no lock) and runs its statement only when the version has moved
 * since the kept rows were read. A revoked key's row is therefore read afresh by the first request after
 * the revocation committed, in this process or any other. Kept rows are immutable: callers map them,
 * never change them, and may keep what they make of them per rows array.
 */
const sqliteCache = processGlobal("raw-read-rows", () => ({
  connection: null as Database | null,
  /** `PRAGMA data_version` when the kept rows were read; null: nothing kept. */
  version: null as number | null,
  /** Rows by SQL text, then by parameters (as JSON). */
  rows: new Map<string, Map<string, readonly unknown[]>>(),
  /** How many rows arrays `rows` holds. */
  size: 0,
}));
const MAX_CACHED_READS = 1000;

function clearCachedRows() {
  sqliteCache.rows.clear();
  sqliteCache.size = 0;
}

/** A read that sees every commit made before it began, served from the kept rows while nothing was committed since they were read. */
function sqliteRead(sql: string, params: Record<string, unknown>): readonly unknown[] {
  const statement = sqliteStatement(sql);
  const connection = statement.database;
  const version = dataVersion(connection);
  if (sqliteCache.connection !== connection || sqliteCache.version !== version) {
    sqliteCache.connection = connection;
    sqliteCache.version = version;
    clearCachedRows();
  }
  // By statement, then by parameters: the SQL text is a constant whose hash V8 keeps, so a look-up
  // hashes only the short parameter text, never a long concatenation of both.
  let bySql = sqliteCache.rows.get(sql);
  if (!bySql) sqliteCache.rows.set(sql, (bySql = new Map()));
  const key = JSON.stringify(params);
  let rows = bySql.get(key);
  if (!rows) {
    // Only a read that runs is a statement (and a span when tracing is on); kept rows cost none.
    rows = immutable(tracedStatement("sqlite", sql, () => statement.all(params)) as object[]);
    if (sqliteCache.size >= MAX_CACHED_READS) {
      clearCachedRows();
      sqliteCache.rows.set(sql, (bySql = new Map()));
    }
    bySql.set(key, rows);
    sqliteCache.size += 1;
  }
  return rows;
}

/** The read connection's `PRAGMA data_version`: a new value whenever another connection has committed since it was last asked. */
function dataVersion(connection: Database): number {
  return sqliteStatement(DATA_VERSION, connection).get() as number;
}
const DATA_VERSION = "PRAGMA data_version";

/**
 * A DateTime column's text from a raw read, in the form the API writes (toISOString's): SQLite's
 * `2026-01-31T12:00:00.000+00:00` becomes `2026-01-31T12:00:00.000Z` without making a Date.
 */
export function isoTimestamp(text: string): string {
  return text.length === 29 && text.endsWith("+00:00") ? `${text.slice(0, 23)}Z` : new Date(text).toISOString();
}

const sqliteStatements = new Map<string, Statement>();

function sqliteStatement(sql: string, connection = readConnection()): Statement {
  let statement = sqliteStatements.get(sql);
  if (!statement || statement.database !== connection) {
    statement = connection.prepare(sql);
    if (sql === DATA_VERSION) statement.pluck();
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
    oid === TIMESTAMP
      ? (value: string) => `${value.replace(" ", "T")}Z`
      : oid === JSONB
        ? asText
        : pg.types.getTypeParser(oid, format as "text"),
};

async function postgresqlRead<Row>(sql: string, params: Record<string, unknown>): Promise<Row[]> {
  const query = positional(sql, "postgresql");
  const values = valuesFor(query, params).map((value) => (value instanceof Date ? value.toISOString() : value));
  const text = query.text;
  const result = await tracedStatement("postgresql", text, () => postgresqlPool().query({ text, values, types }));
  return result.rows as Row[];
}
