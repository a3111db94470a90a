import { isDriverAdapterError } from "@prisma/driver-adapter-utils";
import { Prisma } from "@/lib/generated/prisma/client";

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
    const cause = (
      error.meta as
        { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } | undefined
    )?.driverAdapterError?.cause;
    if (cause?.kind === "TransactionWriteConflict" || cause?.kind === "TooManyConnections") return true;
    return BUSY_CODES.has(String(cause?.code ?? cause?.originalCode ?? ""));
  }
  if (
    error instanceof Prisma.PrismaClientUnknownRequestError ||
    error instanceof Prisma.PrismaClientInitializationError
  ) {
    return /timeout exceeded when trying to connect/.test(error.message);
  }
  if (isDriverAdapterError(error)) {
    const cause = error.cause as { kind?: unknown; code?: unknown; originalCode?: unknown };
    if (cause.kind === "TransactionWriteConflict" || cause.kind === "TooManyConnections") return true;
    return BUSY_CODES.has(String(cause.code ?? cause.originalCode ?? ""));
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
 * statement run on the connection, and PostgreSQL's own from one sent on a transaction's connection (lib/db/raw-sql.ts).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return true;
    const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: unknown } } } | undefined)
      ?.driverAdapterError?.cause;
    return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
  }
  // The driver adapter's own, from a raw statement sent on a PostgreSQL transaction's connection (lib/db/raw-sql.ts).
  if (isDriverAdapterError(error)) return error.cause.kind === "UniqueConstraintViolation";
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
