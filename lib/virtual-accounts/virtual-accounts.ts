import { randomBytes } from "node:crypto";
import { createOrConflict, inTransaction, readLocked } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import { recordTransaction } from "@/lib/transactions/transactions";
import { looksLikeVirtualAccountId, presentVirtualAccount, virtualAccountSchema } from "@/lib/virtual-accounts/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { changeOnce } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's virtual account is simply not found (404, never 403).

const KEY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O or U to misread

/** A readable default key such as `VA-7K3QX9P2M4` (50 random bits). */
function generateKey(): string {
  return `VA-${[...randomBytes(10)].map((byte) => KEY_ALPHABET[byte % 32]).join("")}`;
}

/** Opens a virtual account for the scope's account; a key already used in the account answers 409. */
export async function createVirtualAccount({ currency, key }: { currency: string; key?: string }) {
  const chosenKey = key ?? generateKey();
  const row = await createOrConflict(
    // accountId: set by the tenancy confinement.
    () =>
      tenantDb().virtualAccount.create({
        data: { id: newId("va"), accountId: scopeAccountId(), key: chosenKey, currency },
      }),
    () =>
      new DomainError("conflict", `A virtual account with key "${chosenKey}" already exists`, {
        key: "already in use",
      }),
  );
  return presentVirtualAccount(row);
}

async function findVirtualAccount(idOrKey: string) {
  const row = await tenantDb().virtualAccount.findFirst({
    where: looksLikeVirtualAccountId(idOrKey) ? { id: idOrKey } : { key: idOrKey },
  });
  if (!row) throw notFound("Virtual account");
  return row;
}

/** The virtual account named by its id (`va_...`) or its key. */
export async function getVirtualAccount({ idOrKey }: { idOrKey: string }) {
  return presentVirtualAccount(await findVirtualAccount(idOrKey));
}

/** Stops the account accepting pay-ins. Deactivating an inactive one changes nothing and succeeds. */
export async function deactivateVirtualAccount({ idOrKey }: { idOrKey: string }) {
  return inTransaction(async () => {
    // Locked first, then stamped: pay-ins landing right now (which hold the row shared) commit before
    // the lock is granted, so every pay-in is older than deactivatedAt.
    const row = await readLocked("VirtualAccount", "change", () => findVirtualAccount(idOrKey));
    if (!row.isActive) return presentVirtualAccount(row);
    // Guarded on isActive so a concurrent second deactivation keeps the first deactivatedAt.
    return changeOnce("virtual_account.deactivated", virtualAccountSchema, {
      change: () =>
        tenantDb().virtualAccount.updateMany({
          where: { id: row.id, isActive: true },
          data: { isActive: false, deactivatedAt: new Date() },
        }),
      reread: async () => presentVirtualAccount(await findVirtualAccount(row.id)),
    });
  });
}

/** A completed pay-in to an active virtual account, in its own currency. */
export async function payInToVirtualAccount({
  idOrKey,
  amount,
  currency,
  walletAddress,
}: {
  idOrKey: string;
  amount: string;
  currency: string;
  walletAddress?: string;
}) {
  return inTransaction(async () => {
    // Held shared until the pay-in commits: a deactivation waits for pay-ins landing right now, and a
    // pay-in that comes after the deactivation committed finds it inactive (409).
    const account = await readLocked("VirtualAccount", "share", () => findVirtualAccount(idOrKey));
    if (!account.isActive) {
      throw new DomainError("conflict", `Virtual account ${account.id} is deactivated and no longer accepts pay-ins`);
    }
    if (currency !== account.currency) {
      throw new DomainError("invalid", `currency: must be ${account.currency}, the virtual account's currency`, {
        currency: `must be ${account.currency}, the virtual account's currency`,
      });
    }
    return recordTransaction({
      virtualAccountId: account.id,
      walletAddress,
      amount,
      currency,
      type: "pay_in",
      status: "completed",
    });
  });
}

/** A page of the scope's virtual accounts, newest first by default; `isActive` keeps one state only. */
export async function listVirtualAccounts({ isActive, ...query }: PageQuery & { isActive?: boolean }) {
  const filters = isActive === undefined ? {} : { isActive };
  const page = await paginate(query, (args) =>
    tenantDb().virtualAccount.findMany({ ...args, where: { ...args.where, ...filters } }),
  );
  return { ...page, items: page.items.map(presentVirtualAccount) };
}
