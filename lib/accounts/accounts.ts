import { newId } from "@/lib/ids/generate";
import { notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import { presentAccount } from "@/lib/accounts/schemas";
import { scopePlatformId, tenantDb } from "@/lib/tenancy";

// Every function here runs inside a tenant scope: tenantDb() confines Account queries to the
// scope's platform, so another platform's account is simply not found (404, never 403).

/** Every account of the platform (its own and those under it), oldest first. */
export async function listAccounts() {
  const rows = await tenantDb().account.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentAccount);
}

export async function pageAccounts(query: PageQuery) {
  const page = await paginate(query, (args) => tenantDb().account.findMany(args));
  return { ...page, items: page.items.map(presentAccount) };
}

export async function findAccount(accountId: string) {
  const row = await tenantDb().account.findUnique({ where: { id: accountId } });
  if (!row) throw notFound("Account");
  return row;
}

/** An account under `parentId`, in the scope's platform (the confinement sets platformId). */
export async function createSubAccount({ name, parentId }: { name: string; parentId: string }) {
  const row = await tenantDb().account.create({
    data: { id: newId("acct"), platformId: scopePlatformId(), parentId, name },
  });
  return presentAccount(row);
}
