import type { DelegatedUser } from "@/lib/generated/prisma/client";
import { type ColumnList, currentScope, deferredInsert, insertInto } from "@/lib/db";

// The delegated users' raw statement: the insert of the write the API repeats most.

/** A new delegated user: every column. */
export const DELEGATED_USER_INSERT_COLUMNS = {
  model: "DelegatedUser",
  columns: ["id", "accountId", "externalId", "createdAt"],
  omitted: [],
} as const satisfies ColumnList<DelegatedUser>;

/**
 * Inserts a delegated user in the scope's account (lib/db/raw-sql.ts deferredInsert: on PostgreSQL, in
 * a transaction, sent with the audit record and the events just before COMMIT); a duplicate
 * externalId throws `conflict()`.
 */
export function insertDelegatedUser(user: Omit<DelegatedUser, "accountId">, conflict: () => Error): Promise<void> {
  const { columns } = DELEGATED_USER_INSERT_COLUMNS;
  const row: DelegatedUser = { ...user, accountId: currentScope().accountId };
  return deferredInsert(insertInto("DelegatedUser", columns), row, { conflict });
}
