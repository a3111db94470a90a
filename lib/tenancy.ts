import { db } from "@/lib/db/client";
import { currentScope } from "@/lib/db/tenant";
import { notFound } from "@/lib/errors";
import { idPattern } from "@/lib/ids/schema";
import { withinContext, type Scope } from "@/lib/request-context";

export type { Scope } from "@/lib/request-context";
export { currentScope, tenantDb, type TenantDb } from "@/lib/db/tenant";

/** Runs `work` with every tenantDb() query confined to `scope`. */
export function withScope<T>(scope: Scope, work: () => T | PromiseLike<T>): Promise<T> {
  // Inside the scope: a Prisma query is lazy (it runs when awaited), so it is asked for here, not after the scope ended.
  return withinContext({ scope }, async () => work());
}

/** The account of the current scope: the value a new row of an account's data carries. */
export const scopeAccountId = () => currentScope().accountId;

/** The platform of the current scope: the value a new account or employee row is written with. */
export const scopePlatformId = () => currentScope().platformId;

/**
 * The scope of a request: the caller's own account, or the account named by Service-Account-Id
 * when it belongs to the caller's platform (otherwise 404: never reveal another tenant's account).
 */
type ScopeHolder = {
  platformId: string;
  accountId: string;
  confined: boolean;
  serviceAccount?: { id: string; inPlatform: boolean };
};

export function scopeFor(actor: ScopeHolder, serviceAccountId: string | null): Scope | Promise<Scope> {
  const own = { platformId: actor.platformId, accountId: actor.accountId, confined: actor.confined };
  // No header: the caller's own account, known without a query.
  if (serviceAccountId === null || serviceAccountId.trim() === "") return own;
  return namedScope(actor, own, serviceAccountId.trim());
}

async function namedScope(actor: ScopeHolder, own: Scope, id: string): Promise<Scope> {
  if (!idPattern("acct").test(id)) throw notFound("Account");
  // A sub-account's key may name its own account, and no other.
  if (actor.confined) {
    if (id !== actor.accountId) throw notFound("Account");
    return own;
  }
  // A key's request had it looked up with the key (lib/auth/verify-api-key.ts): no second query.
  if (actor.serviceAccount?.id === id) {
    if (!actor.serviceAccount.inPlatform) throw notFound("Account");
    return { platformId: actor.platformId, accountId: id };
  }
  const account = await db().account.findFirst({ where: { id, platformId: actor.platformId }, select: { id: true } });
  if (!account) throw notFound("Account");
  return { platformId: actor.platformId, accountId: account.id };
}
