import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseFile, databaseProvider, env } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";
import { requestContext, withinContext } from "@/lib/request-context";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresqlPrismaClient } from "@/lib/generated/prisma-postgresql/client";

export type Db = PrismaClient;
/** The client inside db().$transaction(async (tx) => ...). */
export type Tx = Prisma.TransactionClient;

/** Once per process (lib/process-global.ts): the clients, the connection and the open transaction. */
const globalForDb = processGlobal<{
  prisma?: PrismaClient;
  /** SQLite: the client inTransaction() uses, on the same connection (see inTransaction). */
  transactionPrisma?: PrismaClient;
  sqlite?: Promise<SqliteConnection>;
  /** SQLite: the connection once open (sqliteWriterMark reads it synchronously). */
  sqliteOpen?: SqliteConnection;
  pool?: pg.Pool;
}>("db", () => ({}));

/** One holder at a time; `acquire` resolves to the function that lets the next one in. */
function mutex() {
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

type Mutex = ReturnType<typeof mutex>;

/** The process's one SQLite connection (Prisma's adapter over better-sqlite3) and the lock around it. */
type SqliteConnection = {
  adapter: SqlDriverAdapter;
  /** The better-sqlite3 connection inside the adapter. */
  client: BetterSqlite3.Database;
  /** A prepared statement of the connection, cached by its SQL text. */
  statement: (sql: string) => BetterSqlite3.Statement;
  lock: Mutex;
  /** The transaction inTransaction() holds open, if any. */
  open: object | null;
};

const noArgs = { args: [], argTypes: [] };

function sqliteConnection(): Promise<SqliteConnection> {
  globalForDb.sqlite ??= new PrismaBetterSqlite3({ url: databaseFile(), timeout: 10_000 }).connect().then((adapter) => {
    const client = sqliteClientOf(adapter);
    globalForDb.sqliteOpen = { adapter, client, statement: reusePreparedStatements(client), lock: mutex(), open: null };
    return globalForDb.sqliteOpen;
  });
  return globalForDb.sqlite;
}

/**
 * SQLite: where this process's connection stands, for the read snapshots of lib/db/raw-read.ts to
 * tell whether it may have committed a change since: the connection (null before it has opened) and
 * its total_changes(), which counts every row its statements change. Null while a transaction is
 * open on it: what it changes there commits later, without the count moving again. Cheap:
 * total_changes() reads no table, so it starts no read transaction.
 */
export function sqliteWriterMark(): { connection: object | null; changes: number | bigint } | null {
  const connection = globalForDb.sqliteOpen;
  if (!connection?.client.open) return { connection: null, changes: 0 };
  if (connection.client.inTransaction) return null;
  return { connection: connection.client, changes: connection.statement("SELECT total_changes()").pluck(true).get() as number | bigint };
}

/** The better-sqlite3 connection inside Prisma's adapter: its `client`, which the adapter's types do not show. */
function sqliteClientOf(adapter: SqlDriverAdapter): BetterSqlite3.Database {
  const client: unknown = Reflect.get(adapter, "client");
  if (!(client instanceof Database)) throw new Error("@prisma/adapter-better-sqlite3 no longer keeps its connection as `client`");
  return client;
}

/**
 * The adapter of the process's main client. SQLite runs every query on the one connection, and a
 * query outside a transaction is not made to wait for an open one: it would run inside it (on the
 * same connection) and vanish with its rollback, after its own request had been told it succeeded.
 * Here every query, and every transaction Prisma opens, holds the lock while it runs, so
 * transactions must stay short (no password hashing inside).
 */
function lockedSqlite(connection: SqliteConnection): SqlDriverAdapter {
  const { adapter, lock } = connection;
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await lock.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => exclusive(() => adapter.queryRaw(query)),
    executeRaw: (query) => exclusive(() => adapter.executeRaw(query)),
    executeScript: (script) => exclusive(() => adapter.executeScript(script)),
    async startTransaction(isolationLevel): Promise<Transaction> {
      const release = await lock.acquire();
      let transaction: Transaction;
      try {
        transaction = await adapter.startTransaction(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
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
    },
    ...(adapter.getConnectionInfo ? { getConnectionInfo: () => adapter.getConnectionInfo!() } : {}),
    dispose: () => adapter.dispose(),
  };
}

/**
 * The adapter of the client inTransaction() hands out on SQLite: the same connection, used only
 * while that transaction holds the lock, so it takes no lock itself. A query reaching it from
 * anywhere but the open transaction (a stray promise of one that already ended) is refused. A
 * transaction Prisma opens inside (a nested write) is a savepoint of the open one.
 */
function insideSqliteTransaction(connection: SqliteConnection): SqlDriverAdapter {
  const { adapter } = connection;
  const current = () => {
    if (!connection.open || openTransaction()?.token !== connection.open) throw new Error("This transaction has already ended");
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
const connected = (connect: () => Promise<SqlDriverAdapter>): SqlDriverAdapterFactory => ({ provider: "sqlite", adapterName: "@prisma/adapter-better-sqlite3", connect });

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
  const cached = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  (client as { prepare: unknown }).prepare = (sql: string) => {
    const statement = cached(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
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
  return cached;
}

/**
 * The PostgreSQL connection pool of the process (DATABASE_URL=postgresql://...): Prisma's adapter runs
 * on it, and so do the raw hot-path reads (lib/db/raw-read.ts). No lock of ours anywhere: queries and
 * transactions run side by side on their own connections, and each invariant is kept by the rows it is
 * about (lockRow, conditional updates, unique indexes; README, "Invariants").
 */
export function postgresqlPool(): pg.Pool {
  if (!globalForDb.pool) {
    const settings = env();
    globalForDb.pool = new pg.Pool({
      connectionString: settings.DATABASE_URL,
      max: settings.DATABASE_POOL_SIZE,
      // A request that finds every connection busy waits this long, then answers 503 (isDatabaseBusy).
      connectionTimeoutMillis: settings.DATABASE_POOL_TIMEOUT_MS,
      // Sent as the session's settings: no statement, no wait for a row, and no transaction left
      // open by a stalled process, holds a connection (and the rows it locked) for long.
      statement_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      lock_timeout: settings.DATABASE_LOCK_TIMEOUT_MS,
      idle_in_transaction_session_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS * 2,
    });
    // An idle connection the server closed (a restart, a failover) is dropped from the pool; the
    // error must not end the process, the next query simply opens another.
    globalForDb.pool.on("error", (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  }
  return globalForDb.pool;
}

/**
 * Whether the PostgreSQL client has a delegate for every model of the SQLite client it stands in for.
 * Both are generated from the one schema (scripts/prisma-generate.mjs) with the same models and API;
 * their types differ only in PostgreSQL's wider choice of transaction isolation levels, which no code uses.
 */
function hasEveryModel(client: PostgresqlPrismaClient): client is PostgresqlPrismaClient & PrismaClient {
  return Object.values(Prisma.ModelName).every((model) => `${model[0]!.toLowerCase()}${model.slice(1)}` in client);
}

function createClient(): PrismaClient {
  if (databaseProvider() === "postgresql") {
    // Generated from the same schema.prisma (scripts/prisma-generate.mjs), so the models and their
    // API are the same; the code keeps the SQLite client's type.
    const client = new PostgresqlPrismaClient({
      adapter: new PrismaPg(postgresqlPool()),
      // maxWait: the pool's own wait for a connection decides first (DATABASE_POOL_TIMEOUT_MS).
      transactionOptions: { maxWait: env().DATABASE_POOL_TIMEOUT_MS + 1_000, timeout: 60_000 },
    });
    if (!hasEveryModel(client)) throw new Error("The PostgreSQL client lacks models of schema.prisma: run `node scripts/prisma-generate.mjs`");
    return client;
  }
  // The adapter's `timeout` is SQLite's busy timeout: a writer waits for the lock instead of failing
  // with "database is locked". WAL mode is set on the file by the migrator and persists. Generous
  // transaction limits: a slow, shared machine can take seconds to get to a short transaction.
  return new PrismaClient({ adapter: connected(async () => lockedSqlite(await sqliteConnection())), transactionOptions: { maxWait: 30_000, timeout: 60_000 } });
}

/**
 * The transaction inTransaction() runs: the client its queries use, (SQLite) its identity, and
 * (PostgreSQL) what runs just before COMMIT: the inserts lib/db/raw-sql.ts put off to one statement.
 */
export type OpenTransaction = { client: PrismaClient; token?: object; beforeCommit?: () => Promise<void> };

/** The transaction the caller runs in, if any. */
export const currentTransaction = (): OpenTransaction | undefined => openTransaction();

// In the process's one request context (lib/request-context.ts): a production build can hold more
// than one copy of this module (start-up's and the routes'), and a transaction opened through one
// must be seen by the other's client (seen as "This transaction has already ended" on every sign-in when it was not).
const openTransaction = () => requestContext()?.transaction;

/** The one Prisma client of the process, or inside inTransaction() that transaction's client. */
export function db(): PrismaClient {
  const open = openTransaction();
  if (open) return open.client;
  globalForDb.prisma ??= createClient();
  return globalForDb.prisma;
}

/**
 * A transaction's client dressed as the full client, so code that opens its own transaction
 * (`db().$transaction(...)`) simply joins the one it is already in.
 */
function flattened(tx: Tx | PrismaClient): PrismaClient {
  const client: PrismaClient = new Proxy(tx, {
    get(target, property) {
      if (property !== "$transaction") return Reflect.get(target, property);
      return async (work: unknown) => {
        if (typeof work === "function") return work(client);
        const results: unknown[] = [];
        for (const query of Array.isArray(work) ? work : []) results.push(await query);
        return results;
      };
    },
  }) as PrismaClient;
  return client;
}

/**
 * Runs `work` in one database transaction: every db() and tenantDb() query inside it (and any
 * db().$transaction it opens) is part of it, and it commits once, at the end, or not at all.
 * Inside one already, it simply joins it.
 *
 * On SQLite it is not one of Prisma's interactive transactions, whose bookkeeping cost as much CPU as
 * the queries of a small write: it takes the connection's lock, runs BEGIN IMMEDIATE and COMMIT
 * itself, and in between hands out a second client on the same connection (insideSqliteTransaction).
 * A client of its own rather than the main one: Prisma batches findUnique calls made in the same
 * tick into one query, and one from outside the transaction must not be batched into it.
 */
export async function inTransaction<T>(work: () => Promise<T>): Promise<T> {
  if (openTransaction()) return work();
  globalForDb.prisma ??= createClient();
  if (databaseProvider() === "postgresql") {
    return globalForDb.prisma.$transaction((tx) => {
      const open: OpenTransaction = { client: flattened(tx) };
      return withinContext({ transaction: open }, async () => {
        const result = await work();
        await open.beforeCommit?.();
        return result;
      });
    });
  }
  const connection = await sqliteConnection();
  globalForDb.transactionPrisma ??= new PrismaClient({ adapter: connected(async () => insideSqliteTransaction(connection)) });
  const open: OpenTransaction = { client: transactionClient(globalForDb.transactionPrisma), token: {} };
  const release = await connection.lock.acquire();
  try {
    connection.statement("BEGIN IMMEDIATE").run();
    connection.open = open.token!;
    let result: T;
    try {
      result = await withinContext({ transaction: open }, work);
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
  } finally {
    release();
  }
}

/**
 * SQLite: runs `work` with the connection's prepared statements (better-sqlite3, synchronous), as
 * part of the open inTransaction() when called inside one, else holding the lock like any query.
 * For the raw statements of lib/db/raw-sql.ts.
 */
export async function onSqliteConnection<T>(work: (statement: (sql: string) => BetterSqlite3.Statement) => T): Promise<T> {
  const connection = await sqliteConnection();
  const open = openTransaction();
  if (open?.token) {
    if (open.token !== connection.open) throw new Error("This transaction has already ended");
    return work(connection.statement);
  }
  const release = await connection.lock.acquire();
  try {
    return work(connection.statement);
  } finally {
    release();
  }
}

/** ROLLBACK, when SQLite has not already rolled back by itself (some errors end the transaction). */
function rollback(connection: SqliteConnection) {
  try {
    connection.statement("ROLLBACK").run();
  } catch {
    // "cannot rollback - no transaction is active"
  }
}

let transactionClientCache: { base: PrismaClient; flattened: PrismaClient } | undefined;
const transactionClient = (base: PrismaClient) => {
  if (transactionClientCache?.base !== base) transactionClientCache = { base, flattened: flattened(base) };
  return transactionClientCache.flattened;
};

/** Whether the caller runs inside inTransaction(). */
export const inATransaction = () => openTransaction() !== undefined;

/** Closes the clients and the connection; tests use it between throwaway databases. */
export async function disconnectDb() {
  await globalForDb.transactionPrisma?.$disconnect();
  globalForDb.transactionPrisma = undefined;
  await globalForDb.prisma?.$disconnect();
  globalForDb.prisma = undefined;
  // The main client closes the connection when it was connected; otherwise nothing opened it but us.
  const sqlite = await globalForDb.sqlite;
  globalForDb.sqlite = undefined;
  globalForDb.sqliteOpen = undefined;
  if (sqlite?.client.open) await sqlite.adapter.dispose();
  await globalForDb.pool?.end().catch(() => {});
  globalForDb.pool = undefined;
}

/**
 * How strongly lockRow holds a row, PostgreSQL's row-level lock modes: `update` (FOR UPDATE) excludes
 * every other lock, even the key-share lock a row referencing it takes; `change` (FOR NO KEY UPDATE,
 * what an UPDATE takes) lets rows referencing it be inserted meanwhile; `share` (FOR SHARE) keeps the
 * row from changing while other sharers go on side by side.
 */
export type LockMode = "update" | "change" | "share";

const LOCK_CLAUSES: Record<LockMode, string> = { update: "FOR UPDATE", change: "FOR NO KEY UPDATE", share: "FOR SHARE" };

/**
 * Locks rows of `model` for the rest of the request's transaction, for a check whose answer must
 * still hold when the transaction commits (the last active owner, a virtual account still active as a
 * pay-in lands): another transaction's conflicting lock or change waits for ours, and ours for theirs.
 * Answers whether it took a lock, so the caller reads the row again (what it read before may have
 * changed while the lock waited). On SQLite it does nothing and answers false: a transaction there
 * holds the database's write lock from BEGIN IMMEDIATE to COMMIT, so nothing changes under it.
 */
export async function lockRows(model: Prisma.ModelName, ids: readonly string[], mode: LockMode): Promise<boolean> {
  if (databaseProvider() !== "postgresql" || ids.length === 0) return false;
  if (!openTransaction()) throw new Error("lockRows outside a transaction: a lock ends with its statement");
  // Sorted, so two transactions locking the same rows take them in one order (no deadlock between them).
  const sorted = [...new Set(ids)].sort();
  await db().$executeRawUnsafe(`SELECT 1 FROM "${model}" WHERE "id" = ANY($1::text[]) ORDER BY "id" ${LOCK_CLAUSES[mode]}`, sorted);
  return true;
}

export const lockRow = (model: Prisma.ModelName, id: string, mode: LockMode) => lockRows(model, [id], mode);

/**
 * `read`s the row a check is about, held (lockRow) until the transaction ends: on PostgreSQL read,
 * locked, and read again when it was found (the lock may have waited for a change that committed
 * meanwhile); on SQLite read once.
 */
export async function readLocked<T extends { id: string } | null>(model: Prisma.ModelName, mode: LockMode, read: () => Promise<T>): Promise<T> {
  const row = await read();
  return row && (await lockRow(model, row.id, mode)) ? read() : row;
}

/**
 * Whether an error says the database is too busy to answer now, not that anything is wrong with the
 * request: every pooled connection in use past DATABASE_POOL_TIMEOUT_MS, a statement past its
 * statement or lock timeout, Prisma's wait for a transaction, or PostgreSQL giving up on a deadlock or a
 * serialization conflict. The route wrapper answers it 503 with Retry-After, never a hung request.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    // P2028: no transaction could be started in time (or it ran past its timeout); P2034: a write conflict or deadlock.
    if (error.code === "P2028" || error.code === "P2034") return true;
    const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } | undefined)?.driverAdapterError?.cause;
    if (cause?.kind === "TransactionWriteConflict" || cause?.kind === "TooManyConnections") return true;
    return BUSY_CODES.has(String(cause?.code ?? cause?.originalCode ?? ""));
  }
  if (error instanceof Prisma.PrismaClientUnknownRequestError || error instanceof Prisma.PrismaClientInitializationError) {
    return /timeout exceeded when trying to connect/.test(error.message);
  }
  if (!(error instanceof Error)) return false;
  if (error.message === "timeout exceeded when trying to connect") return true;
  return BUSY_CODES.has(String((error as { code?: unknown }).code ?? ""));
}

/** PostgreSQL's codes for statement and lock timeouts, deadlocks, serialization failures and too many connections. */
const BUSY_CODES = new Set(["57014", "55P03", "40P01", "40001", "53300"]);

/**
 * Whether an error is a unique index refusing a duplicate, on either database: Prisma's P2002 from a
 * model query, its P2010 wrapping PostgreSQL's 23505 from a raw one, SQLite's own from a raw
 * statement run on the connection (lib/db/raw-sql.ts).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return true;
    const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: unknown } } } | undefined)?.driverAdapterError?.cause;
    return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
  }
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * Runs a create that a unique index guards and answers a duplicate with `conflict()` (the contract's
 * 409 naming the field), whether the row was there before or a concurrent request inserted it a
 * moment ago: the index decides, no look-up first. Inside a PostgreSQL transaction the refused
 * statement ends it, so the conflict is thrown straight on.
 */
export async function createOrConflict<T>(create: () => Promise<T>, conflict: () => Error): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}
