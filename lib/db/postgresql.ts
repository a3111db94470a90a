import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresqlPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { processGlobal } from "@/lib/process-global";
import type { OpenTransaction } from "@/lib/request-context";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PostgresqlTransaction, TransactionClients } from "@/lib/db/postgresql-transaction";
import { tracedAdapterFactory } from "@/lib/observability/tracing-adapter";

/** Once per process (lib/process-global.ts): the pool. */
const globalForPostgresql = processGlobal<{
  pool?: pg.Pool;
  engine?: Promise<SqlDriverAdapter>;
  clients?: TransactionClients;
}>("db-postgresql", () => ({}));

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
 * Prisma's PrismaPg over the pool, each statement in a span when tracing is on: every statement but the raw
 * reads (lib/db/raw-read.ts) goes to PostgreSQL through one of these adapters.
 */
const pgAdapterFactory = (): SqlDriverAdapterFactory =>
  tracedAdapterFactory("postgresql", new PrismaPg(postgresqlPool()));

/** Once per process: the driver adapter over the pool (Prisma's PrismaPg) that the service's own transactions run on. */
function postgresqlEngine(): Promise<SqlDriverAdapter> {
  return (globalForPostgresql.engine ??= pgAdapterFactory().connect());
}

/**
 * Runs `run` in one transaction of the service's own (lib/db/postgresql-transaction.ts): begun at its
 * first statement, committed when `run` and the transaction's `beforeCommit` are done, rolled back when
 * either throws. Its Prisma client is one lent to it for its duration (waiting for one when as many
 * transactions as the pool has connections run already), handed out as `clientOf` makes it. Prisma's interactive transactions are not used: they cost about
 * as much CPU as the rest of a simple write, and a write whose only statement is the one sent before
 * COMMIT needs no BEGIN and COMMIT at all.
 */
export async function runPostgresqlTransaction<T>(
  clientOf: (client: PrismaClient) => PrismaClient,
  run: (open: OpenTransaction) => Promise<T>,
): Promise<T> {
  const engine = await postgresqlEngine();
  const clients = (globalForPostgresql.clients ??= transactionClientsOn(engine));
  const transaction = new PostgresqlTransaction(engine);
  const lent = await clients.lend(transaction);
  const open: OpenTransaction = { client: clientOf(lent.client), connection: transaction };
  try {
    const result = await run(open);
    await open.beforeCommit?.();
    await transaction.end("COMMIT");
    return result;
  } catch (error) {
    // The error that ended it is the one to report; a failed ROLLBACK still gave the connection back.
    await transaction.end("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    clients.giveBack(lent);
  }
}

/** Once per process: the clients transactions borrow, as many as the pool has connections. */
function transactionClientsOn(engine: SqlDriverAdapter): TransactionClients {
  const settings = env();
  return new TransactionClients(engine, createClientOn, {
    max: settings.DATABASE_POOL_SIZE,
    waitMs: settings.DATABASE_POOL_TIMEOUT_MS,
  });
}

/** A PostgreSQL client on `adapter`; it keeps the SQLite client's type. */
function createClientOn(adapter: SqlDriverAdapterFactory): PrismaClient {
  const client = new PostgresqlPrismaClient({ adapter });
  if (!hasEveryModel(client))
    throw new Error("The PostgreSQL client lacks models of schema.prisma: run `node scripts/prisma-generate.mjs`");
  return client;
}

/** The main client on PostgreSQL, for the queries outside a transaction. */
export function createPostgresqlClient(): PrismaClient {
  return createClientOn(pgAdapterFactory());
}

/** Closes the transactions' clients and the pool (no adapter owns it). */
export async function disconnectPostgresql() {
  const clients = globalForPostgresql.clients;
  globalForPostgresql.clients = undefined;
  globalForPostgresql.engine = undefined;
  await clients?.disconnect();
  await globalForPostgresql.pool?.end().catch(() => {});
  globalForPostgresql.pool = undefined;
}
