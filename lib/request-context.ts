import { AsyncLocalStorage } from "node:async_hooks";
import type { SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { processGlobal } from "@/lib/process-global";

/**
 * The tenant a request acts in: its platform, and the account within it (its own, or
 * Service-Account-Id's). `confined` (a sub-account's key): the platform's other accounts do not exist for it.
 */
export type Scope = { platformId: string; accountId: string; confined?: boolean };

/**
 * The transaction inTransaction() runs (lib/db/client.ts): the client its queries use, (SQLite)
 * its identity, and (PostgreSQL) what runs just before COMMIT: the inserts lib/db/raw-sql.ts put off.
 */
export type OpenTransaction = {
  client: PrismaClient;
  token?: object;
  beforeCommit?: () => Promise<void>;
  /** (PostgreSQL) the transaction's own connection while it is open, for raw statements sent without Prisma. */
  connection?: TransactionConnection;
};

/**
 * (PostgreSQL) an open transaction as raw statements use it: its driver-adapter transaction (Prisma's
 * public interface), whose statements run on the transaction's own connection.
 */
export type PgTransaction = Pick<Transaction, "executeRaw" | "queryRaw">;

/**
 * (PostgreSQL) the transaction inTransaction() runs, as the service's engine keeps it (lib/db/postgresql-transaction.ts):
 * begun on a connection of the pool at its first statement, not before.
 */
export type TransactionConnection = {
  /** Whether a statement has begun it (BEGIN sent on a connection of its own). */
  readonly begun: boolean;
  /** The transaction's statements, begun now if none has begun it yet; refused once it has ended. */
  statements(): Promise<PgTransaction>;
  /**
   * Its last statement, just before COMMIT: on its connection when the transaction has begun; when it has not,
   * sent alone on any connection of the pool, where one statement is atomic without BEGIN and COMMIT.
   */
  lastStatement(query: SqlQuery): Promise<number>;
};

/**
 * What a request carries through its awaits: its tenant scope (lib/tenancy.ts) and the transaction it
 * runs in (lib/db/client.ts). Their types are declared here, so this module imports none of theirs.
 * One AsyncLocalStorage for both, once
 * per process (lib/process-global.ts: a production build can hold more than one copy of a module):
 * every storage that exists costs each promise the process makes a little, about 1 % of a
 * key-authenticated GET per storage.
 */
type RequestContext = {
  readonly scope?: Scope;
  readonly transaction?: OpenTransaction;
};

const storage = processGlobal("request-context", () => new AsyncLocalStorage<RequestContext>());

/** The current context, if any. */
export const requestContext = (): RequestContext | undefined => storage.getStore();

/** Runs `work` with `change` in the context; the rest of the current context carries over. */
export function withinContext<T>(change: RequestContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...change }, work);
}
