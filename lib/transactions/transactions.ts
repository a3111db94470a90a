import { newId } from "@/lib/ids/generate";
import { notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import {
  presentTransaction,
  transactionSchema,
  type TransactionStatus,
  type TransactionType,
} from "@/lib/transactions/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's account.

/**
 * Records a transaction of the scope's account, as the sandbox pay-in and the demo-data seed do.
 * Policy (an inactive virtual account refusing pay-ins, say) belongs to the caller; this only
 * insists that a linked virtual account is the scope's own. `createdAt` lets a seed spread history.
 */
export async function recordTransaction({
  virtualAccountId = null,
  walletAddress = null,
  amount,
  currency,
  type,
  status,
  createdAt,
}: {
  virtualAccountId?: string | null;
  walletAddress?: string | null;
  amount: string;
  currency: string;
  type: TransactionType;
  status: TransactionStatus;
  createdAt?: Date;
}) {
  if (virtualAccountId !== null) {
    const owned = await tenantDb().virtualAccount.findUnique({ where: { id: virtualAccountId }, select: { id: true } });
    if (!owned) throw notFound("Virtual account");
  }
  const row = await tenantDb().transaction.create({
    data: {
      id: newId("txn"),
      accountId: scopeAccountId(),
      virtualAccountId,
      walletAddress,
      amount,
      currency,
      type,
      status,
      ...(createdAt ? { createdAt } : {}),
    },
  });
  const transaction = presentTransaction(row);
  await emitResourceEvent("transaction.created", transactionSchema, transaction);
  return transaction;
}

/**
 * A page of the scope's transactions, newest first by default. Filters are plain equalities next to
 * the account, so each query walks one of the (accountId, [virtualAccountId | walletAddress], createdAt, id)
 * indexes in order and stops after `limit + 1` rows, however deep the page.
 */
export async function listTransactions({
  virtualAccountId,
  walletAddress,
  ...page
}: PageQuery & { virtualAccountId?: string; walletAddress?: string }) {
  const filters = {
    ...(virtualAccountId !== undefined ? { virtualAccountId } : {}),
    ...(walletAddress !== undefined ? { walletAddress } : {}),
  };
  const result = await paginate(page, (args) =>
    tenantDb().transaction.findMany({ ...args, where: { ...args.where, ...filters } }),
  );
  return { ...result, items: result.items.map(presentTransaction) };
}
