import { inTransaction, readLocked } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import { presentRecipient, recipientSchema } from "@/lib/recipients/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's recipient is simply not found (404, never 403).

/** Saves a recipient of the scope's account, usable as a transfer destination until deleted. */
export async function createRecipient({ name }: { name: string }) {
  // accountId: set by the tenancy confinement.
  const row = await tenantDb().recipient.create({ data: { id: newId("rcp"), accountId: scopeAccountId(), name } });
  return presentRecipient(row);
}

/**
 * Deletes a recipient: it can no longer be a destination for new transfers, and it answers 404 from
 * then on (so deleting it again is 404 too). The row stays, soft-deleted, for the transfers that
 * already point at it.
 */
export function deleteRecipient({ id }: { id: string }) {
  return inTransaction(() => deleteRecipientRow(id));
}

async function deleteRecipientRow(id: string) {
  // Locked first, then stamped: transfers being made to it right now (which hold the row shared)
  // commit before the lock is granted, so every transfer to it is older than deletedAt.
  await readLocked("Recipient", "change", () =>
    tenantDb().recipient.findUnique({ where: { id }, select: { id: true } }),
  );
  const deletedAt = new Date();
  // One guarded write: of two concurrent deletes exactly one succeeds, the other sees 404.
  const { count } = await tenantDb().recipient.updateMany({
    where: { id, deletedAt: null },
    data: { isActive: false, deletedAt },
  });
  if (count === 0) throw notFound("Recipient");
  const deleted = presentRecipient(await tenantDb().recipient.findUniqueOrThrow({ where: { id } }));
  await emitResourceEvent("recipient.deleted", recipientSchema, deleted);
  return deleted;
}

/** A page of the scope's saved recipients, newest first by default. Deleted ones answer 404 everywhere, so they are not listed. */
export async function listRecipients(query: PageQuery) {
  const page = await paginate(query, (args) =>
    tenantDb().recipient.findMany({ ...args, where: { ...args.where, deletedAt: null } }),
  );
  return { ...page, items: page.items.map(presentRecipient) };
}
