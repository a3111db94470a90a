import { databaseProvider } from "@/lib/env";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { processGlobal } from "@/lib/process-global";
import { requestContext, withinContext, type OpenTransaction } from "@/lib/request-context";
import { createPostgresqlClient, disconnectPostgresql, runPostgresqlTransaction } from "@/lib/db/postgresql";
import { createSqliteClient, disconnectSqlite, runSqliteTransaction } from "@/lib/db/sqlite";

export type Db = PrismaClient;
/** The client inside db().$transaction(async (tx) => ...). */
export type Tx = Prisma.TransactionClient;

/** Once per process (lib/process-global.ts): the main client. */
const globalForDb = processGlobal<{ prisma?: PrismaClient }>("db", () => ({}));

const mainClient = (): PrismaClient =>
  (globalForDb.prisma ??= databaseProvider() === "postgresql" ? createPostgresqlClient() : createSqliteClient());

// In the process's one request context (lib/request-context.ts): a production build can hold more
// than one copy of this module (start-up's and the routes'), and a transaction opened through one
// must be seen by the other's client (seen as "This transaction has already ended" on every sign-in when it was not).
/** The transaction the caller runs in, if any. */
export const currentTransaction = (): OpenTransaction | undefined => requestContext()?.transaction;

/** The one Prisma client of the process, or inside inTransaction() that transaction's client. */
export function db(): PrismaClient {
  return currentTransaction()?.client ?? mainClient();
}

const nestedTransaction = () =>
  Promise.reject(
    new Error("$transaction inside inTransaction(): call inTransaction(), which joins the open transaction, instead"),
  );

/**
 * A transaction's client as db() hands it out inside inTransaction(): the full client's type, but
 * `$transaction` refuses. Nesting one would either open a second transaction beside the open one (on
 * SQLite, waiting for the lock the open one holds) or silently join it; inTransaction() says which.
 */
function transactionClientOf(client: Tx | PrismaClient): PrismaClient {
  return new Proxy(client, {
    get: (target, property) => (property === "$transaction" ? nestedTransaction : Reflect.get(target, property)),
  }) as PrismaClient;
}

const transactionClients = new WeakMap<object, PrismaClient>();
function cachedTransactionClientOf(client: PrismaClient): PrismaClient {
  let wrapped = transactionClients.get(client);
  if (!wrapped) transactionClients.set(client, (wrapped = transactionClientOf(client)));
  return wrapped;
}

/**
 * Runs `work` in one database transaction: every db() and tenantDb() query inside it is part of it,
 * and it commits once, at the end, or not at all. Called inside one already, it joins it: `work`
 * commits (or rolls back) with the outermost call, and an error it throws that a caller catches does
 * not undo what it wrote. `db().$transaction` inside is refused (transactionClientOf).
 *
 * On PostgreSQL it is the service's own transaction on a connection of the pool, begun at its first
 * statement (lib/db/postgresql-transaction.ts); the inserts lib/db/raw-sql.ts put off are sent just before
 * COMMIT. On SQLite it runs on the connection directly (lib/db/sqlite.ts).
 */
export async function inTransaction<T>(work: () => Promise<T>): Promise<T> {
  if (currentTransaction()) return work();
  if (databaseProvider() === "postgresql")
    return runPostgresqlTransaction(cachedTransactionClientOf, (open) => withinContext({ transaction: open }, work));
  return runSqliteTransaction(
    (client) => ({ client: cachedTransactionClientOf(client) }),
    (open) => withinContext({ transaction: open }, work),
  );
}

/** Closes the clients and the connections; tests use it between throwaway databases. */
export async function disconnectDb() {
  await globalForDb.prisma?.$disconnect();
  globalForDb.prisma = undefined;
  await disconnectSqlite();
  await disconnectPostgresql();
}
