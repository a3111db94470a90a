import type { Database, Statement } from "better-sqlite3";
import pg from "pg";
import { postgresqlPool } from "@/lib/db/postgresql";
import { sqliteWriterMark } from "@/lib/db/sqlite";
import { readConnection } from "@/lib/db/read-connection";
import { positional, valuesFor } from "@/lib/db/raw-sql";
import { databaseProvider } from "@/lib/env";
import { immutable } from "@/lib/immutable";
import { requestContext, type ReadSnapshot } from "@/lib/request-context";

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
 * The rows of recent SQLite reads, kept while the database is unchanged: `PRAGMA data_version`
 * changes whenever any other connection commits (this one only reads), the service's own writer
 * and other processes alike. Checking it is a third of the cost of the key lookup in a busy server
 * (it starts a read transaction: two file locks and a stat), so a key polling its list costs less
 * while nothing changes; any commit empties the cache, and the next read runs the statement again.
 * The version is read before the rows: rows newer than their version are merely re-read next time.
 * Kept rows are immutable: callers map them, never change them, and may keep what they make of them per rows array.
 */
const sqliteCache = {
  connection: null as Database | null,
  version: -1,
  /** Rows by SQL text, then by parameters (as JSON). */
  rows: new Map<string, Map<string, readonly unknown[]>>(),
  /** How many rows arrays `rows` holds. */
  size: 0,
};
const MAX_CACHED_READS = 1000;

function clearCachedRows() {
  sqliteCache.rows.clear();
  sqliteCache.size = 0;
}

/**
 * The raw reads of one request share one check of the version (the route wrapper gives each request
 * a snapshot, lib/http/route.ts): they see the database as it was at the request's first raw read,
 * which came after the request did, plus anything this process has committed since. A later read
 * checks again when this process's connection may have committed (sqliteWriterMark moved, or a
 * transaction was open at the check) or when the cache has moved on to another version. The snapshot
 * lives in the request's context (lib/request-context.ts, ReadSnapshot).
 */
function sqliteRead(sql: string, params: Record<string, unknown>): readonly unknown[] {
  const statement = sqliteStatement(sql);
  const connection = statement.database;
  const snapshot = requestContext()?.reads;
  if (!snapshot || !snapshotHolds(snapshot, connection)) {
    const writer = snapshot && sqliteWriterMark();
    const version = versionSince(snapshot, connection, writer);
    if (sqliteCache.connection !== connection || sqliteCache.version !== version) {
      sqliteCache.connection = connection;
      sqliteCache.version = version;
      clearCachedRows();
    }
    if (snapshot) {
      snapshot.reader = writer ? connection : undefined;
      snapshot.version = version;
      snapshot.writer = writer?.connection;
      snapshot.changes = writer?.changes;
    }
  }
  // By statement, then by parameters: the SQL text is a constant whose hash V8 keeps, so a look-up
  // hashes only the short parameter text, never a long concatenation of both.
  let bySql = sqliteCache.rows.get(sql);
  if (!bySql) sqliteCache.rows.set(sql, (bySql = new Map()));
  const key = JSON.stringify(params);
  let rows = bySql.get(key);
  if (!rows) {
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

function snapshotHolds(snapshot: ReadSnapshot, connection: Database): boolean {
  if (
    snapshot.reader !== connection ||
    snapshot.version !== sqliteCache.version ||
    sqliteCache.connection !== connection
  )
    return false;
  const writer = sqliteWriterMark();
  return writer !== null && writer.connection === snapshot.writer && writer.changes === snapshot.changes;
}

/** Snapshots handed out so far (newReadSnapshot): a snapshot's `begun` is its place in that count. */
let snapshotsBegun = 0;

/** A snapshot for a request's raw reads, numbered as it begins (the route wrapper, lib/http/route.ts). */
export function newReadSnapshot(): ReadSnapshot {
  snapshotsBegun += 1;
  return { begun: snapshotsBegun };
}

/**
 * The process's last PRAGMA data_version: its answer, how many snapshots had begun by then, and where
 * this process's own writer stood (null: unknown, a transaction was open).
 */
let lastCheck: {
  connection: Database | null;
  version: number;
  begun: number;
  writer: ReturnType<typeof sqliteWriterMark>;
} = { connection: null, version: -1, begun: 0, writer: null };

/**
 * The data version a request's reads go by. A version read after the request began shows every commit
 * made before it began, which is all the request may count on; so a request reuses the last check when
 * that check came after the request began and this process's writer has not moved since (its own
 * commits then show). Under load, requests that arrive together share one check: the pragma starts a
 * read transaction (file locks, a stat), the largest cost left in a key-authenticated GET.
 */
function versionSince(
  snapshot: ReadSnapshot | undefined,
  connection: Database,
  writer: ReturnType<typeof sqliteWriterMark> | undefined,
): number {
  const last = lastCheck;
  if (
    snapshot?.begun !== undefined &&
    snapshot.begun <= last.begun &&
    last.connection === connection &&
    writer &&
    last.writer &&
    writer.connection === last.writer.connection &&
    writer.changes === last.writer.changes
  )
    return last.version;
  const version = dataVersion(connection);
  lastCheck = { connection, version, begun: snapshotsBegun, writer: writer ?? null };
  return version;
}

const versionStatements = new WeakMap<Database, Statement<[], number>>();
function dataVersion(connection: Database): number {
  let statement = versionStatements.get(connection);
  if (!statement) {
    statement = connection.prepare<[], number>("PRAGMA data_version").pluck();
    versionStatements.set(connection, statement);
  }
  return statement.get()!;
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
