import { databaseProvider } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db, currentTransaction } from "@/lib/db/client";

/**
 * How strongly lockRow holds a row, PostgreSQL's row-level lock modes: `update` (FOR UPDATE) excludes
 * every other lock, even the key-share lock a row referencing it takes; `change` (FOR NO KEY UPDATE,
 * what an UPDATE takes) lets rows referencing it be inserted meanwhile; `share` (FOR SHARE) keeps the
 * row from changing while other sharers go on side by side.
 */
export type LockMode = "update" | "change" | "share";

const LOCK_CLAUSES: Record<LockMode, string> = {
  update: "FOR UPDATE",
  change: "FOR NO KEY UPDATE",
  share: "FOR SHARE",
};

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
  if (!currentTransaction()) throw new Error("lockRows outside a transaction: a lock ends with its statement");
  // Sorted, so two transactions locking the same rows take them in one order (no deadlock between them).
  const sorted = [...new Set(ids)].sort();
  await db().$executeRawUnsafe(
    `SELECT 1 FROM "${model}" WHERE "id" = ANY($1::text[]) ORDER BY "id" ${LOCK_CLAUSES[mode]}`,
    sorted,
  );
  return true;
}

export const lockRow = (model: Prisma.ModelName, id: string, mode: LockMode) => lockRows(model, [id], mode);

/**
 * `read`s the row a check is about, held (lockRow) until the transaction ends: on PostgreSQL read,
 * locked, and read again when it was found (the lock may have waited for a change that committed
 * meanwhile); on SQLite read once.
 */
export async function readLocked<T extends { id: string } | null>(
  model: Prisma.ModelName,
  mode: LockMode,
  read: () => Promise<T>,
): Promise<T> {
  const row = await read();
  return row && (await lockRow(model, row.id, mode)) ? read() : row;
}
