import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresqlPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { processGlobal } from "@/lib/process-global";
import { requestContext, type PgConnection } from "@/lib/request-context";
import type { IsolationLevel, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";

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
 * Prisma's adapter on the pool, but each transaction it starts also leaves its connection where
 * inTransaction() asked (lib/db/client.ts): the raw statements of lib/db/raw-sql.ts then go to
 * PostgreSQL on it straight, in the same transaction, without Prisma's own handling of a query
 * (measured: 250 to 400 µs of CPU for the one raw statement of a write, about a sixth of the write).
 */
export function adapterLeavingTransactionConnections(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      return overriding(adapter, {
        startTransaction: async (isolationLevel?: IsolationLevel) => {
          const transaction = await adapter.startTransaction(isolationLevel);
          const slot = requestContext()?.startingTransaction;
          if (!slot) return transaction;
          slot.current = pgConnectionOf(transaction);
          return endingWith(transaction, () => (slot.current = undefined));
        },
      });
    },
  };
}

/**
 * The transaction, calling `ended` as it ends: before Prisma sends its COMMIT or ROLLBACK (also when
 * Prisma gives up on a transaction past its time limit while its callback still runs), and at its
 * commit() or rollback(), which hand the connection back to the pool.
 */
function endingWith(transaction: Transaction, ended: () => void): Transaction {
  const ending = (query: { sql: string }) => {
    if (/^\s*(COMMIT|ROLLBACK)\b/i.test(query.sql)) ended();
  };
  return overriding(transaction, {
    executeRaw: (query: Parameters<Transaction["executeRaw"]>[0]) => (ending(query), transaction.executeRaw(query)),
    queryRaw: (query: Parameters<Transaction["queryRaw"]>[0]) => (ending(query), transaction.queryRaw(query)),
    commit: () => (ended(), transaction.commit()),
    rollback: () => (ended(), transaction.rollback()),
  });
}

/** `target` with `methods` in place of its own; everything else as it is (its methods bound to it). */
function overriding<T extends object>(target: T, methods: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(methods, property)) return methods[property as keyof T];
      const value: unknown = Reflect.get(object, property);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/** The pg connection inside one of the adapter's transactions: its `client`, which the adapter's types do not show. */
function pgConnectionOf(transaction: Transaction): PgConnection {
  const connection: unknown = Reflect.get(transaction, "client");
  if (!(connection instanceof pg.Client))
    throw new Error("@prisma/adapter-pg no longer keeps a transaction's connection as `client`");
  return connection;
}

/** The main client on PostgreSQL; it keeps the SQLite client's type. */
export function createPostgresqlClient(): PrismaClient {
  const client = new PostgresqlPrismaClient({
    adapter: adapterLeavingTransactionConnections(new PrismaPg(postgresqlPool())),
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
