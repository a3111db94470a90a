import Database from "better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { databaseFile } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { processGlobal } from "@/lib/process-global";
import { requestContext, type OpenTransaction } from "@/lib/request-context";
import { executeScript, executeStatement, queryRows, SQLITE_ADAPTER_NAME } from "@/lib/db/sqlite-driver";
import { tracedStatement } from "@/lib/observability/tracing";

// Everything that knows SQLite's connection: the one writing connection of the process (the service's
// own better-sqlite3 connection, given to Prisma through Prisma's public driver-adapter interface), the
// lock around it, the transactions inTransaction() runs on it, and its prepared statements.

/** Once per process (lib/process-global.ts): the connection and the transaction client. */
const globalForSqlite = processGlobal<{
  connection?: SqliteConnection;
  /** The client inTransaction() uses, on the same connection (see runSqliteTransaction). */
  transactionPrisma?: PrismaClient;
}>("db-sqlite", () => ({}));

/** One holder at a time; `acquire` resolves to the function that lets the next one in. */
function createMutex() {
  let tail = Promise.resolve();
  return {
    acquire(): Promise<() => void> {
      let release!: () => void;
      const next = new Promise<void>((resolve) => (release = resolve));
      const ready = tail.then(() => release);
      tail = tail.then(() => next);
      return ready;
    },
  };
}

/** The process's one writing SQLite connection and the lock around it. */
type SqliteConnection = {
  client: BetterSqlite3.Database;
  /** A prepared statement of the connection, cached by its SQL text. */
  statement: (sql: string) => BetterSqlite3.Statement;
  lock: ReturnType<typeof createMutex>;
  /** The transaction inTransaction() holds open, if any. */
  open: object | null;
};

const noArgs = { args: [], argTypes: [] };

/**
 * The connection: SQLite's busy timeout makes a writer wait for the lock instead of failing with
 * "database is locked"; WAL mode is set on the file by the migrator and persists.
 */
function sqliteConnection(): SqliteConnection {
  if (!globalForSqlite.connection) {
    const client = new Database(databaseFile(), { timeout: 10_000 });
    // Integers come back as BigInt, so no value past 2^53 is rounded; lib/db/sqlite-driver.ts hands Prisma numbers.
    client.defaultSafeIntegers(true);
    // A commit is on disk before it is acknowledged: in WAL mode FULL syncs the WAL at every commit.
    // better-sqlite3 builds SQLite with NORMAL as WAL mode's default (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1),
    // under which the last commits before a power cut can be lost; it is per connection, so set here.
    client.pragma("synchronous = FULL");
    globalForSqlite.connection = { client, statement: cachedStatements(client), lock: createMutex(), open: null };
  }
  return globalForSqlite.connection;
}

/**
 * The connection's prepared statements, cached by SQL text (preparing afresh for every query was a large
 * share of a write's CPU); the least recently prepared goes first past 500.
 */
function cachedStatements(client: BetterSqlite3.Database): (sql: string) => BetterSqlite3.Statement {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const MAX_CACHED = 500;
  return (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      statement = client.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** Runs `work` holding the connection's lock. */
async function exclusively<T>(connection: SqliteConnection, work: () => T | Promise<T>): Promise<T> {
  const release = await connection.lock.acquire();
  try {
    return await work();
  } finally {
    release();
  }
}

/** Prisma's queries on the connection's cached statements, each in a span when tracing is on. */
const queryOn = (connection: SqliteConnection) => ({
  queryRaw: async (query: SqlQuery) =>
    tracedStatement("sqlite", query.sql, () => queryRows(connection.statement, query)),
  executeRaw: async (query: SqlQuery) =>
    tracedStatement("sqlite", query.sql, () => executeStatement(connection.statement, query)),
});

/**
 * A transaction Prisma opens itself on the main client (one of its interactive transactions, or the
 * transaction it runs a nested write in): BEGIN IMMEDIATE holding the connection's lock, Prisma's own
 * COMMIT or ROLLBACK statements, then commit() or rollback() let the next holder in. BEGIN IMMEDIATE
 * rather than a deferred BEGIN: with another process on the file, a deferred transaction that has read
 * and then writes after the other committed fails at once with SQLITE_BUSY (its snapshot is stale);
 * BEGIN IMMEDIATE takes the write lock first, waiting for it (the busy timeout) instead.
 */
async function startLockedTransaction(connection: SqliteConnection): Promise<Transaction> {
  const release = await connection.lock.acquire();
  try {
    connection.statement("BEGIN IMMEDIATE").run();
  } catch (error) {
    release();
    throw error;
  }
  const end = async () => release();
  return {
    provider: "sqlite",
    adapterName: SQLITE_ADAPTER_NAME,
    options: { usePhantomQuery: false },
    ...queryOn(connection),
    commit: end,
    rollback: end,
  };
}

/**
 * The adapter of the process's main client. SQLite runs every query on the one connection, and a
 * query outside a transaction is not made to wait for an open one: it would run inside it (on the
 * same connection) and vanish with its rollback, after its own request had been told it succeeded.
 * Here every query, and every transaction Prisma opens, holds the lock while it runs, so
 * transactions must stay short (no password hashing inside).
 */
function lockedAdapterOf(connection: SqliteConnection): SqlDriverAdapter {
  const { queryRaw, executeRaw } = queryOn(connection);
  return {
    provider: "sqlite",
    adapterName: SQLITE_ADAPTER_NAME,
    queryRaw: (query) => exclusively(connection, () => queryRaw(query)),
    executeRaw: (query) => exclusively(connection, () => executeRaw(query)),
    executeScript: (script) => exclusively(connection, () => executeScript(connection.client, script)),
    startTransaction: () => startLockedTransaction(connection),
    // disconnectSqlite() closes the connection.
    dispose: async () => {},
  };
}

/**
 * The adapter of the client inTransaction() hands out: the same connection, used only while that
 * transaction holds the lock, so it takes no lock itself. A query reaching it from anywhere but the
 * open transaction (a stray promise of one that already ended) is refused. A transaction Prisma
 * opens inside (a nested write, which Prisma runs as a transaction of its own) is a savepoint.
 */
function insideTransactionAdapterOf(connection: SqliteConnection): SqlDriverAdapter {
  const { queryRaw, executeRaw } = queryOn(connection);
  const current = () => {
    if (!connection.open || requestContext()?.transaction?.token !== connection.open)
      throw new Error("This transaction has already ended");
  };
  const run = (sql: string) => executeRaw({ sql, ...noArgs });
  let savepoints = 0;
  return {
    provider: "sqlite",
    adapterName: SQLITE_ADAPTER_NAME,
    queryRaw: async (query) => (current(), queryRaw(query)),
    executeRaw: async (query) => (current(), executeRaw(query)),
    executeScript: async (script) => (current(), executeScript(connection.client, script)),
    async startTransaction(): Promise<Transaction> {
      current();
      const name = `prisma_${++savepoints}`;
      await run(`SAVEPOINT ${name}`);
      return {
        provider: "sqlite",
        adapterName: SQLITE_ADAPTER_NAME,
        // Prisma then ends it through commit() and rollback() rather than with COMMIT/ROLLBACK statements.
        options: { usePhantomQuery: true },
        queryRaw: async (query) => (current(), queryRaw(query)),
        executeRaw: async (query) => (current(), executeRaw(query)),
        commit: async () => void (await run(`RELEASE SAVEPOINT ${name}`)),
        rollback: async () => {
          await run(`ROLLBACK TO SAVEPOINT ${name}`);
          await run(`RELEASE SAVEPOINT ${name}`);
        },
      };
    },
    dispose: async () => {},
  };
}

/** A driver adapter factory over the process's connection (Prisma's public interface). */
const factoryOf = (connect: () => SqlDriverAdapter): SqlDriverAdapterFactory => ({
  provider: "sqlite",
  adapterName: SQLITE_ADAPTER_NAME,
  connect: async () => connect(),
});

/**
 * The main client on SQLite. Generous transaction limits: a slow, shared machine can take seconds to
 * get to a short transaction.
 */
export function createSqliteClient(): PrismaClient {
  return new PrismaClient({
    adapter: factoryOf(() => lockedAdapterOf(sqliteConnection())),
    transactionOptions: { maxWait: 30_000, timeout: 60_000 },
  });
}

/**
 * Runs `work` as one transaction on the connection: not one of Prisma's interactive transactions,
 * whose bookkeeping cost as much CPU as the queries of a small write, but the connection's lock,
 * BEGIN IMMEDIATE and COMMIT run here, and in between a second client on the same connection
 * (insideTransactionAdapterOf). A client of its own rather than the main one: Prisma batches
 * findUnique calls made in the same tick into one query, and one from outside the transaction must
 * not be batched into it. `begin` makes the transaction's context from that client; `work` runs in it.
 */
export async function runSqliteTransaction<T>(
  begin: (client: PrismaClient) => OpenTransaction,
  work: (open: OpenTransaction) => Promise<T>,
): Promise<T> {
  const connection = sqliteConnection();
  globalForSqlite.transactionPrisma ??= new PrismaClient({
    adapter: factoryOf(() => insideTransactionAdapterOf(connection)),
  });
  const open = begin(globalForSqlite.transactionPrisma);
  open.token = {};
  return exclusively(connection, async () => {
    connection.statement("BEGIN IMMEDIATE").run();
    connection.open = open.token!;
    let result: T;
    try {
      result = await work(open);
    } catch (error) {
      connection.open = null;
      rollback(connection);
      throw error;
    }
    connection.open = null;
    try {
      connection.statement("COMMIT").run();
    } catch (error) {
      rollback(connection);
      throw error;
    }
    return result;
  });
}

/** ROLLBACK, when SQLite has not already rolled back by itself (some errors end the transaction). */
function rollback(connection: SqliteConnection) {
  try {
    connection.statement("ROLLBACK").run();
  } catch {
    // "cannot rollback - no transaction is active"
  }
}

/**
 * Runs `work` with the connection's prepared statement for `sql` (better-sqlite3, synchronous), as part
 * of the open inTransaction() when called inside one, else holding the lock like any query; in a span
 * when tracing is on. For the raw statements of lib/db/raw-sql.ts.
 */
export async function onSqliteConnection<T>(sql: string, work: (statement: BetterSqlite3.Statement) => T): Promise<T> {
  const connection = sqliteConnection();
  const run = () => tracedStatement("sqlite", sql, () => work(connection.statement(sql)));
  const token = requestContext()?.transaction?.token;
  if (token) {
    if (token !== connection.open) throw new Error("This transaction has already ended");
    return run();
  }
  return exclusively(connection, run);
}

/** Closes the transaction client and the connection. */
export async function disconnectSqlite() {
  await globalForSqlite.transactionPrisma?.$disconnect();
  globalForSqlite.transactionPrisma = undefined;
  const connection = globalForSqlite.connection;
  globalForSqlite.connection = undefined;
  if (connection?.client.open) connection.client.close();
}
