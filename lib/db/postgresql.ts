import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresqlPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { processGlobal } from "@/lib/process-global";
import { requestContext, type TransactionConnection } from "@/lib/request-context";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  Transaction,
} from "@prisma/driver-adapter-utils";

/** Once per process (lib/process-global.ts): the pool. */
const globalForPostgresql = processGlobal<{ pool?: pg.Pool }>("db-postgresql", () => ({}));

/**
 * The PostgreSQL connection pool of the process (DATABASE_URL=postgresql://...): Prisma's adapter runs
 * on it, and so do the raw hot-path reads (lib/db/raw-read.ts). No lock of ours anywhere: queries and
 * transactions run side by side on their own connections, and each invariant is kept by the rows it is
 * about (lockRow, conditional updates, unique indexes; docs/security.md, Invariants).
 */
export function postgresqlPool(): pg.Pool {
  if (!globalForPostgresql.pool) {
    const settings = env();
    globalForPostgresql.pool = new pg.Pool({
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
    globalForPostgresql.pool.on("error", (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  }
  return globalForPostgresql.pool;
}

/**
 * Whether the PostgreSQL client has a delegate for every model of the SQLite client it stands in for.
 * Both are generated from the one schema (scripts/prisma-generate.mjs) with the same models and API;
 * their types differ only in PostgreSQL's wider choice of transaction isolation levels, which no code uses.
 */
function hasEveryModel(client: PostgresqlPrismaClient): client is PostgresqlPrismaClient & PrismaClient {
  return Object.values(Prisma.ModelName).every((model) => `${model[0]!.toLowerCase()}${model.slice(1)}` in client);
}

/**
 * Prisma's PostgreSQL adapter (PrismaPg, on the service's pool) behind an adapter of the service's own,
 * both through Prisma's public driver-adapter interface. A transaction that inTransaction() opens is
 * handed to it as it starts (lib/db/client.ts leaves a slot in the request's context), so the raw
 * statements of lib/db/raw-sql.ts run on the transaction's own connection through its public executeRaw,
 * without Prisma's handling of a query (measured: 250 to 400 µs of CPU for the one raw statement of a
 * write, about a sixth of the write). How the transaction ends is this adapter's too: Prisma calls
 * commit() or rollback() (usePhantomQuery), which take it back from the raw statements and then send
 * COMMIT or ROLLBACK; also when Prisma gives up on a transaction past its time limit while its callback
 * still runs, whose later raw statements then find no transaction and are refused.
 */
export function handingOutTransactions(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await factory.connect();
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: (query) => adapter.queryRaw(query),
        executeRaw: (query) => adapter.executeRaw(query),
        executeScript: (script) => adapter.executeScript(script),
        startTransaction: async (isolationLevel?: IsolationLevel) =>
          handedOut(await adapter.startTransaction(isolationLevel), requestContext()?.startingTransaction),
        ...(adapter.getConnectionInfo ? { getConnectionInfo: () => adapter.getConnectionInfo!() } : {}),
        dispose: () => adapter.dispose(),
      };
    },
  };
}

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

/** `transaction`, left in `slot` while it is open, and ended here: taken back, then COMMIT or ROLLBACK sent, then its connection released. */
function handedOut(transaction: Transaction, slot: TransactionConnection | undefined): Transaction {
  if (slot) slot.current = transaction;
  const end = async (sql: "COMMIT" | "ROLLBACK", release: () => Promise<void>) => {
    if (slot?.current === transaction) slot.current = undefined;
    try {
      await transaction.executeRaw(statement(sql));
    } finally {
      await release();
    }
  };
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: { usePhantomQuery: true },
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    commit: () => end("COMMIT", () => transaction.commit()),
    rollback: () => end("ROLLBACK", () => transaction.rollback()),
    ...(transaction.createSavepoint
      ? {
          createSavepoint: (name: string) => transaction.createSavepoint!(name),
          rollbackToSavepoint: (name: string) => transaction.rollbackToSavepoint!(name),
          releaseSavepoint: (name: string) => transaction.releaseSavepoint!(name),
        }
      : {}),
  };
}

/** The main client on PostgreSQL; it keeps the SQLite client's type. */
export function createPostgresqlClient(): PrismaClient {
  const client = new PostgresqlPrismaClient({
    adapter: handingOutTransactions(new PrismaPg(postgresqlPool())),
    // maxWait: the pool's own wait for a connection decides first (DATABASE_POOL_TIMEOUT_MS).
    transactionOptions: { maxWait: env().DATABASE_POOL_TIMEOUT_MS + 1_000, timeout: 60_000 },
  });
  if (!hasEveryModel(client))
    throw new Error("The PostgreSQL client lacks models of schema.prisma: run `node scripts/prisma-generate.mjs`");
  return client;
}

/** Closes the pool (the main client's adapter does not own it). */
export async function disconnectPostgresql() {
  await globalForPostgresql.pool?.end().catch(() => {});
  globalForPostgresql.pool = undefined;
}
