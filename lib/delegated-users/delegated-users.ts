import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import { delegatedUserSchema, presentDelegatedUser } from "@/lib/delegated-users/schemas";
import { insertDelegatedUser } from "@/lib/delegated-users/store";
import { tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's delegated user is simply not found (404, never 403).

/**
 * Links a user of the platform's own system. The unique index on (accountId, externalId) refuses a
 * duplicate, whether it was there before or a concurrent request inserted it a moment ago: 409.
 * A raw INSERT (lib/delegated-users/store.ts): platforms call this once per customer they sign up, and a model
 * create (which reads the row back) cost as much as the rest of the request.
 */
export async function createDelegatedUser({ externalId }: { externalId: string }) {
  const user = { id: newId("du"), externalId, createdAt: new Date() };
  await insertDelegatedUser(
    user,
    () =>
      new DomainError("conflict", "A delegated user with this externalId already exists", {
        externalId: "already exists",
      }),
  );
  await emitResourceEvent("delegated_user.created", delegatedUserSchema, user);
  return presentDelegatedUser(user);
}

export async function listDelegatedUsers(query: PageQuery & { externalId?: string }) {
  const filters = query.externalId === undefined ? {} : { externalId: query.externalId };
  const page = await paginate(query, (args) =>
    tenantDb().delegatedUser.findMany({ ...args, where: { ...args.where, ...filters } }),
  );
  return { ...page, items: page.items.map(presentDelegatedUser) };
}

export async function findDelegatedUser({ id }: { id: string }) {
  const row = await tenantDb().delegatedUser.findUnique({ where: { id } });
  if (!row) throw notFound("Delegated user");
  return presentDelegatedUser(row);
}
