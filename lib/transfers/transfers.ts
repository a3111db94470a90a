import { inTransaction, readLocked } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { presentTransfer, transferSchema } from "@/lib/transfers/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's transfer or recipient is simply not found (404, never 403).

/**
 * A pending transfer to a saved recipient of the scope's account. An unknown recipient (or another
 * account's) is 404 "Recipient not found"; a deleted one is 409, as the spec says a deleted recipient
 * can no longer be a destination for new transfers.
 */
export function createTransfer(input: { recipientId: string; amount: string; currency: string }) {
  // One transaction (the request's, when there is one), which the recipient's lock lasts for.
  return inTransaction(() => createTransferRow(input));
}

async function createTransferRow({
  recipientId,
  amount,
  currency,
}: {
  recipientId: string;
  amount: string;
  currency: string;
}) {
  // Held shared until the transfer commits: a deletion waits for transfers being made to the recipient
  // right now, and a transfer after the deletion committed finds it deleted (409).
  const recipient = await readLocked("Recipient", "share", () =>
    tenantDb().recipient.findUnique({ where: { id: recipientId }, select: { id: true, deletedAt: true } }),
  );
  if (!recipient) throw notFound("Recipient");
  if (recipient.deletedAt) {
    throw new DomainError("conflict", `Recipient ${recipient.id} is deleted and cannot receive new transfers`, {
      recipientId: "is deleted",
    });
  }
  const row = await tenantDb().transfer.create({
    data: { id: newId("tr"), accountId: scopeAccountId(), recipientId, amount, currency, status: "pending" },
  });
  const transfer = presentTransfer(row);
  await emitResourceEvent("transfer.created", transferSchema, transfer);
  return transfer;
}

/** The scope's transfer with this id; throws 404 when there is none (another account's included). */
export async function getTransfer({ id }: { id: string }) {
  const row = await tenantDb().transfer.findUnique({ where: { id } });
  if (!row) throw notFound("Transfer");
  return presentTransfer(row);
}
