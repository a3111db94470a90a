import type { Database, Statement } from "better-sqlite3";
import pg from "pg";
import { postgresqlPool } from "@/lib/db/postgresql";
import { readConnection, readWalIndex } from "@/lib/db/read-connection";
import { watchOwnCommits } from "@/lib/db/sqlite";
import { walIndexHeader } from "@/lib/db/wal-index";
import { positional, valuesFor } from "@/lib/db/raw-sql";
import { databaseProvider } from "@/lib/env";
import { immutable } from "@/lib/immutable";
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
 * The rows of recent SQLite reads, kept while the database is unchanged: the header of its WAL index
 * changes with every commit by any connection, the service's own writer and other processes alike
 * (lib/db/wal-index.ts). Each read reads the header first (one system call, no lock) and runs its
 * statement only when the header has moved since the kept rows were read, or when it cannot be relied
 * on. The header is read before the rows: rows newer than their header are merely read again next time.
 * Kept rows are immutable: callers map them, never change them, and may keep what they make of them per rows array.
 */
const sqliteCache = processGlobal("raw-read-rows", () => ({
  connection: null as Database | null,
  /** The WAL-index header the kept rows were read under (a copy); null: nothing kept. */
  header: null as Buffer | null,
  /** Rows by SQL text, then by parameters (as JSON). */
  rows: new Map<string, Map<string, readonly unknown[]>>(),
  /** How many rows arrays `rows` holds. */
  size: 0,
  /** By SQL text: whether the statement reads only WATCHED_TABLES (see noteTablesRead). */
  readsOnlyWatched: new Map<string, boolean>(),
}));
const MAX_CACHED_READS = 1000;

function clearCachedRows() {
  sqliteCache.rows.clear();
  sqliteCache.size = 0;
}

/**
 * The tables the hot paths read (the key check, the key list). The service's own transactions that
 * change none of their rows (a delegated user's insert and its audit record: most writes) keep the
 * rows read from them: lib/db/sqlite.ts reports each such commit, made while it held the write lock.
 * Rows of a statement that reads any other table go at every commit, as before.
 */
const WATCHED_TABLES = ["ApiKey", "Account"] as const;

/** Notes, once per SQL text, whether the statement reads only WATCHED_TABLES: SQLite's own plan says which tables it opens. */
function noteTablesRead(statement: Statement, sql: string, params: Record<string, unknown>) {
  if (sqliteCache.readsOnlyWatched.has(sql)) return;
  const connection = statement.database;
  const tableOfRoot = new Map(
    connection
      .prepare(`SELECT "rootpage", "tbl_name" FROM "sqlite_schema" WHERE "type" IN ('table', 'index')`)
      .raw()
      .all() as [number, string][],
  );
  const watched = new Set<string>(WATCHED_TABLES);
  // Each table or index the statement reads is an OpenRead of its root page in database 0 (main).
  const opened = (connection.prepare(`EXPLAIN ${sql}`).all(params) as { opcode: string; p2: number; p3: number }[])
    .filter((step) => step.opcode === "OpenRead")
    .map((step) => (step.p3 === 0 ? tableOfRoot.get(step.p2) : undefined));
  const only = opened.length > 0 && opened.every((table) => table !== undefined && watched.has(table));
  sqliteCache.readsOnlyWatched.set(sql, only);
}

/** The read connection's WAL-index header as it stands now; null when there is none to rely on (lib/db/wal-index.ts). */
function headerNow(connection: Database): Buffer | null {
  const walIndex = readWalIndex(connection);
  return walIndex && walIndexHeader(walIndex);
}

watchOwnCommits({
  tables: WATCHED_TABLES,
  // The header now, when kept rows were read under it (nothing committed since): else nothing to keep.
  begun() {
    const { connection, header } = sqliteCache;
    if (!connection || !header) return null;
    return headerNow(connection)?.equals(header) ? header : null;
  },
  committedWithoutThem(begun) {
    const { connection } = sqliteCache;
    if (!begun || !connection || sqliteCache.header !== begun) return;
    const now = headerNow(connection);
    if (!now) return;
    // The rows of the watched tables are as they were: they stand under the header this commit wrote.
    for (const sql of sqliteCache.rows.keys()) {
      if (sqliteCache.readsOnlyWatched.get(sql) === true) continue;
      sqliteCache.size -= sqliteCache.rows.get(sql)!.size;
      sqliteCache.rows.delete(sql);
    }
    sqliteCache.header = Buffer.from(now);
  },
});

/** A read that sees every commit made before it began, served from the kept rows while nothing was committed since they were read. */
function sqliteRead(sql: string, params: Record<string, unknown>): readonly unknown[] {
  const statement = sqliteStatement(sql);
  const connection = statement.database;
  const header = headerNow(connection);
  if (header === null) {
    // Nothing to go by: the statement itself sees every commit.
    sqliteCache.header = null;
    clearCachedRows();
    return immutable(statement.all(params) as object[]);
  }
  if (sqliteCache.connection !== connection || sqliteCache.header === null || !header.equals(sqliteCache.header)) {
    sqliteCache.connection = connection;
    sqliteCache.header = Buffer.from(header);
    clearCachedRows();
  }
  // By statement, then by parameters: the SQL text is a constant whose hash V8 keeps, so a look-up
  // hashes only the short parameter text, never a long concatenation of both.
  let bySql = sqliteCache.rows.get(sql);
  if (!bySql) sqliteCache.rows.set(sql, (bySql = new Map()));
  const key = JSON.stringify(params);
  let rows = bySql.get(key);
  if (!rows) {
    noteTablesRead(statement, sql, params);
    rows = immutable(statement.all(params) as object[]);
    if (sqliteCache.size >= MAX_CACHED_READS) {
      clearCachedRows();
      sqliteCache.rows.set(sql, (bySql = new Map()));
    }
    bySql.set(key, rows);
    sqliteCache.size += 1;
  }
  return rows;
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
  const result = await postgresqlPool().query({ text, values, types });
  return result.rows as Row[];
}
