import { newId } from "@/lib/ids";
import { ApiError, notFound } from "@/lib/http/api-error";
import { paginate, type PageQuery } from "@/lib/http/pagination";
import { delegatedUserSchema, presentDelegatedUser } from "@/lib/delegated-users/schemas";
import { tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/emit";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's delegated user is simply not found (404, never 403).

/**
 * Links a user of the platform's own system. The look-up first gives the usual duplicate a clear
 * message; two requests racing past it both reach the insert, where the unique index on
 * (accountId, externalId) refuses the second and the route wrapper answers 409 for it too.
 */
export async function createDelegatedUser({ externalId }: { externalId: string }) {
  if (await tenantDb().delegatedUser.findFirst({ where: { externalId }, select: { id: true } })) {
    throw new ApiError("err_conflict", "A delegated user with this externalId already exists", { externalId: "already exists" });
  }
  const row = await tenantDb().delegatedUser.create({ data: { id: newId("du"), accountId: "", externalId } });
  const user = presentDelegatedUser(row);
  await emitResourceEvent("delegated_user.created", delegatedUserSchema, user);
  return user;
}

export async function listDelegatedUsers(query: PageQuery & { externalId?: string }) {
  const filters = query.externalId === undefined ? {} : { externalId: query.externalId };
  const page = await paginate(query, (args) => tenantDb().delegatedUser.findMany({ ...args, where: { ...args.where, ...filters } }));
  return { ...page, items: page.items.map(presentDelegatedUser) };
}

export async function findDelegatedUser({ id }: { id: string }) {
  const row = await tenantDb().delegatedUser.findUnique({ where: { id } });
  if (!row) throw notFound("Delegated user");
  return presentDelegatedUser(row);
}
