import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";
import { databaseFile } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { processGlobal } from "@/lib/process-global";
import { requestContext, type OpenTransaction } from "@/lib/request-context";

// Everything that knows SQLite's connection: the one connection of the process, the lock around
// it, the transactions inTransaction() runs on it, and its prepared statements. The only module
// that reaches into @prisma/adapter-better-sqlite3's internals (its `client`, its `prepare` calls).

/** Once per process (lib/process-global.ts): the connection and the transaction client. */
const globalForSqlite = processGlobal<{
  connection?: Promise<SqliteConnection>;
  /** What raw reads watch (see watchOwnCommits): once per process, as the rows they keep are. */
  ownCommitWatch?: OwnCommitWatch;
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

/** The process's one SQLite connection (Prisma's adapter over better-sqlite3) and the lock around it. */
type SqliteConnection = {
  adapter: SqlDriverAdapter;
  /** The better-sqlite3 connection inside the adapter. */
  client: BetterSqlite3.Database;
  /** A prepared statement of the connection, cached by its SQL text. */
  statement: (sql: string) => BetterSqlite3.Statement;
  lock: ReturnType<typeof createMutex>;
  /** The transaction inTransaction() holds open, if any. */
  open: object | null;
  /** Whether the open transaction has changed a row of a watched table (see watchOwnCommits). */
  wroteWatched: boolean;
  /** The watch whose triggers this connection has (false: they could not be made, so no commit is reported). */
  watching: OwnCommitWatch | false | null;
};

/**
 * What raw reads (lib/db/raw-read.ts) learn of the transactions runSqliteTransaction commits, so
 * that rows they keep from `tables` outlive the service's own commits that leave those tables alone.
 */
export type OwnCommitWatch = {
  tables: readonly string[];
  /** Right after BEGIN IMMEDIATE: this connection holds the write lock, so no other can commit until it ends. */
  begun(): unknown;
  /** Right after COMMIT, with what `begun` returned; only when the transaction changed no row of `tables`. */
  committedWithoutThem(begun: unknown): void;
};

export function watchOwnCommits(watch: OwnCommitWatch) {
  globalForSqlite.ownCommitWatch = watch;
}

/**
 * TEMP triggers (this connection's own, never in the file) that note any insert, update or delete on
 * the watched tables, through a function of this connection. False when they cannot be made (a
 * table not there yet): then no commit is reported, and kept rows go at every commit.
 */
function installWatch(connection: SqliteConnection, watch: OwnCommitWatch): OwnCommitWatch | false {
  try {
    connection.client.function("own_commit_wrote_watched", () => {
      connection.wroteWatched = true;
      return null;
    });
    for (const table of watch.tables)
      for (const change of ["INSERT", "UPDATE", "DELETE"])
        connection.client.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS "watch_${table}_${change}" AFTER ${change} ON main."${table}" BEGIN SELECT own_commit_wrote_watched(); END`,
        );
    return watch;
  } catch {
    return false;
  }
}

const noArgs = { args: [], argTypes: [] };

function sqliteConnection(): Promise<SqliteConnection> {
  globalForSqlite.connection ??= new PrismaBetterSqlite3({ url: databaseFile(), timeout: 10_000 })
    .connect()
    .then((adapter) => {
      const client = sqliteClientOf(adapter);
      // A commit is on disk before it is acknowledged: in WAL mode FULL syncs the WAL at every commit.
      // better-sqlite3 builds SQLite with NORMAL as WAL mode's default (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1),
      // under which the last commits before a power cut can be lost; it is per connection, so set here.
      client.pragma("synchronous = FULL");
      const statement = reusePreparedStatements(client);
      return { adapter, client, statement, lock: createMutex(), open: null, wroteWatched: false, watching: null };
    });
  return globalForSqlite.connection;
}

/** The better-sqlite3 connection inside Prisma's adapter: its `client`, which the adapter's types do not show. */
function sqliteClientOf(adapter: SqlDriverAdapter): BetterSqlite3.Database {
  const client: unknown = Reflect.get(adapter, "client");
  if (!(client instanceof Database))
    throw new Error("@prisma/adapter-better-sqlite3 no longer keeps its connection as `client`");
  return client;
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

/** A transaction of Prisma's whose end lets the next holder of the lock in. */
function releasingAtEnd(transaction: Transaction, release: () => void): Transaction {
  const end = async (how: "commit" | "rollback") => {
    try {
      await transaction[how]();
    } finally {
      release();
    }
  };
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    commit: () => end("commit"),
    rollback: () => end("rollback"),
    ...(transaction.createSavepoint
      ? {
          createSavepoint: (name: string) => transaction.createSavepoint!(name),
          rollbackToSavepoint: (name: string) => transaction.rollbackToSavepoint!(name),
          releaseSavepoint: (name: string) => transaction.releaseSavepoint!(name),
        }
      : {}),
  } as Transaction;
}

/**
 * The adapter of the process's main client. SQLite runs every query on the one connection, and a
 * query outside a transaction is not made to wait for an open one: it would run inside it (on the
 * same connection) and vanish with its rollback, after its own request had been told it succeeded.
 * Here every query, and every transaction Prisma opens, holds the lock while it runs, so
 * transactions must stay short (no password hashing inside).
 */
function lockedAdapterOf(connection: SqliteConnection): SqlDriverAdapter {
  const { adapter, lock } = connection;
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => exclusively(connection, () => adapter.queryRaw(query)),
    executeRaw: (query) => exclusively(connection, () => adapter.executeRaw(query)),
    executeScript: (script) => exclusively(connection, () => adapter.executeScript(script)),
    async startTransaction(isolationLevel): Promise<Transaction> {
      const release = await lock.acquire();
      try {
        return releasingAtEnd(await adapter.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    ...(adapter.getConnectionInfo ? { getConnectionInfo: () => adapter.getConnectionInfo!() } : {}),
    dispose: () => adapter.dispose(),
  };
}

/**
 * The adapter of the client inTransaction() hands out: the same connection, used only while that
 * transaction holds the lock, so it takes no lock itself. A query reaching it from anywhere but the
 * open transaction (a stray promise of one that already ended) is refused. A transaction Prisma
 * opens inside (a nested write, which Prisma runs as a transaction of its own) is a savepoint.
 */
function insideTransactionAdapterOf(connection: SqliteConnection): SqlDriverAdapter {
  const { adapter } = connection;
  const current = () => {
    if (!connection.open || requestContext()?.transaction?.token !== connection.open)
      throw new Error("This transaction has already ended");
  };
  let savepoints = 0;
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: async (query) => (current(), adapter.queryRaw(query)),
    executeRaw: async (query) => (current(), adapter.executeRaw(query)),
    executeScript: async (script) => (current(), adapter.executeScript(script)),
    async startTransaction(): Promise<Transaction> {
      current();
      const name = `prisma_${++savepoints}`;
      await adapter.executeRaw({ sql: `SAVEPOINT ${name}`, ...noArgs });
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        // Prisma then ends it through commit() and rollback() rather than with COMMIT/ROLLBACK statements.
        options: { usePhantomQuery: true },
        queryRaw: async (query) => (current(), adapter.queryRaw(query)),
        executeRaw: async (query) => (current(), adapter.executeRaw(query)),
        commit: async () => void (await adapter.executeRaw({ sql: `RELEASE SAVEPOINT ${name}`, ...noArgs })),
        rollback: async () => {
          await adapter.executeRaw({ sql: `ROLLBACK TO SAVEPOINT ${name}`, ...noArgs });
          await adapter.executeRaw({ sql: `RELEASE SAVEPOINT ${name}`, ...noArgs });
        },
      };
    },
    // The main client's adapter closes the connection.
    dispose: async () => {},
  };
}

/** A driver adapter factory for an already open connection. */
const factoryOf = (connect: () => Promise<SqlDriverAdapter>): SqlDriverAdapterFactory => ({
  provider: "sqlite",
  adapterName: "@prisma/adapter-better-sqlite3",
  connect,
});

/**
 * The adapter prepares every statement afresh for every query (a large share of a write's CPU) and
 * binds its parameters onto it, which a shared statement cannot take twice. Here `prepare` hands out
 * a cached statement behind a small object that passes the parameters at each run instead.
 *
 * It also opens transactions with BEGIN IMMEDIATE instead of the adapter's deferred BEGIN: with
 * another process on the same file (a second instance, its webhook worker), a deferred transaction
 * that has read and then writes after the other process committed fails at once with SQLITE_BUSY
 * (its snapshot is stale; waiting cannot help). BEGIN IMMEDIATE takes the write lock first, waiting
 * for it (the busy timeout) instead.
 */
function reusePreparedStatements(client: BetterSqlite3.Database): (sql: string) => BetterSqlite3.Statement {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, BetterSqlite3.Statement>();
  const MAX_CACHED = 500;
  const cachedStatement = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  (client as { prepare: unknown }).prepare = (sql: string) => {
    const statement = cachedStatement(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
    return {
      bind: (args: unknown[]) => ({
        reader: statement.reader,
        run: () => statement.run(...args),
        columns: () => statement.columns(),
        raw: () => ({ all: () => statement.raw(true).all(...args) }),
      }),
      run: () => statement.run(),
    };
  };
  return cachedStatement;
}

/**
 * The main client on SQLite. The adapter's `timeout` is SQLite's busy timeout: a writer waits for the
 * lock instead of failing with "database is locked". WAL mode is set on the file by the migrator and
 * persists. Generous transaction limits: a slow, shared machine can take seconds to get to a short transaction.
 */
export function createSqliteClient(): PrismaClient {
  return new PrismaClient({
    adapter: factoryOf(async () => lockedAdapterOf(await sqliteConnection())),
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
  const connection = await sqliteConnection();
  globalForSqlite.transactionPrisma ??= new PrismaClient({
    adapter: factoryOf(async () => insideTransactionAdapterOf(connection)),
  });
  const open = begin(globalForSqlite.transactionPrisma);
  open.token = {};
  return exclusively(connection, async () => {
    const wanted = globalForSqlite.ownCommitWatch;
    const watch = wanted && (connection.watching ??= installWatch(connection, wanted));
    connection.statement("BEGIN IMMEDIATE").run();
    connection.wroteWatched = false;
    const begun = watch ? watch.begun() : null;
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
    // At once after COMMIT, before anything else can run on this process.
    if (watch && !connection.wroteWatched) watch.committedWithoutThem(begun);
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
 * Runs `work` with the connection's prepared statements (better-sqlite3, synchronous), as part of
 * the open inTransaction() when called inside one, else holding the lock like any query. For the
 * raw statements of lib/db/raw-sql.ts.
 */
export async function onSqliteConnection<T>(
  work: (statement: (sql: string) => BetterSqlite3.Statement) => T,
): Promise<T> {
  const connection = await sqliteConnection();
  const token = requestContext()?.transaction?.token;
  if (token) {
    if (token !== connection.open) throw new Error("This transaction has already ended");
    return work(connection.statement);
  }
  return exclusively(connection, () => work(connection.statement));
}

/** Closes the transaction client and the connection (the main client closes it when it was connected). */
export async function disconnectSqlite() {
  await globalForSqlite.transactionPrisma?.$disconnect();
  globalForSqlite.transactionPrisma = undefined;
  const connection = await globalForSqlite.connection;
  globalForSqlite.connection = undefined;
  if (connection?.client.open) await connection.adapter.dispose();
}
