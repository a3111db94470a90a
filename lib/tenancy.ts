import { AsyncLocalStorage } from "node:async_hooks";
import { db } from "@/lib/db";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { rawRead } from "@/lib/db/raw-read";
import { rawExecute } from "@/lib/db/raw-sql";
import { notFound } from "@/lib/http/api-error";
import { idPattern } from "@/lib/id-schema";

/**
 * The tenant a request acts in: its platform, and the account within it (its own, or
 * Service-Account-Id's). `confined` (a sub-account's key): the platform's other accounts do not exist for it.
 */
export type Scope = { platformId: string; accountId: string; confined?: boolean };

// On globalThis: a production build can hold more than one copy of this module (see lib/db.ts).
const globalForScope = globalThis as unknown as { [key: symbol]: AsyncLocalStorage<Scope> | undefined };
const SCOPE = Symbol.for("platform-compliance.tenant-scope");
const storage = (globalForScope[SCOPE] ??= new AsyncLocalStorage<Scope>());

/** Runs `work` with every tenantDb() query confined to `scope`. The route wrapper is the usual caller. */
export function withScope<T>(scope: Scope, work: () => Promise<T>): Promise<T> {
  return storage.run(scope, () => {
    const result = work();
    // A Prisma query is lazy (it runs when awaited): settle it here, inside the scope, not after it ended.
    return result instanceof Promise ? result : Promise.resolve(result);
  });
}

export function currentScope(): Scope {
  const scope = storage.getStore();
  // Fail closed: a tenant query with no tenant is a bug, never "all tenants".
  if (!scope) throw new Error("Tenant data was queried outside a tenant scope (withScope)");
  return scope;
}

const accountOwned = new Set([
  "ApiKey",
  "DelegatedUser",
  "VirtualAccount",
  "Transaction",
  "Recipient",
  "Transfer",
  "KycSubmission",
  "Beneficiary",
  "Agreement",
  "ApplicantProfile",
  "InformationRequest",
  "WebhookEndpoint",
  "WebhookDelivery",
]);

/** The column values that confine a model's rows to the current scope, or null for models that are not tenant data. */
function confinement(model: string | undefined, operation: string): Record<string, string> | null {
  if (!model) return null;
  const scope = currentScope();
  if (accountOwned.has(model)) return { accountId: scope.accountId };
  // A confined caller sees its own account only (never creates one: account creation is platform-wide).
  if (model === "Account") return scope.confined && !operation.startsWith("create") ? { platformId: scope.platformId, id: scope.accountId } : { platformId: scope.platformId };
  if (model === "AuditEvent") return { platformId: scope.platformId };
  // Employees belong to the platform's own account, whose id is the platform id.
  if (model === "Employee") return { accountId: currentScope().platformId };
  return null;
}

type Where = { AND?: object | object[] };
type Args = { where?: Where; data?: object | object[]; create?: object };

/**
 * The query's own filter AND the scope's: added as a condition, never merged over the query's keys,
 * so a query naming another row (`id`, say) finds nothing instead of being redirected to the caller's.
 */
const within = (where: Where | undefined, values: Record<string, string>): Where => ({
  ...where,
  AND: [...([] as object[]).concat(where?.AND ?? []), values],
});

function confine(operation: string, args: Args, values: Record<string, string>): Args {
  switch (operation) {
    case "create":
      return { ...args, data: { ...(args.data as object), ...values } };
    case "createMany":
    case "createManyAndReturn":
      return { ...args, data: ([] as object[]).concat(args.data ?? []).map((row) => ({ ...row, ...values })) };
    case "upsert":
      return { ...args, where: within(args.where, values), create: { ...args.create, ...values } };
    default:
      return { ...args, where: within(args.where, values) };
  }
}

const OPERATIONS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
  "count",
  "aggregate",
  "groupBy",
]);

export type TenantDb = PrismaClient;

const tenantClients = new WeakMap<object, TenantDb>();

/**
 * `client` with every model operation confined to the current scope. A proxy rather than a Prisma
 * client extension, because it must also wrap a transaction's client (inTransaction), which
 * Prisma does not let one extend. `$transaction` hands its callback the confined transaction client.
 */
function confined(client: PrismaClient): TenantDb {
  let tenant = tenantClients.get(client);
  if (tenant) return tenant;
  const delegates = new Map<string, unknown>();
  tenant = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "$transaction") {
        return (work: unknown, options?: unknown) =>
          typeof work === "function"
            ? target.$transaction((tx) => (work as (tx: TenantDb) => Promise<unknown>)(confined(tx as PrismaClient)), options as never)
            : target.$transaction(work as never, options as never);
      }
      if (typeof property !== "string" || property.startsWith("$") || typeof value !== "object" || value === null) return value;
      let delegate = delegates.get(property);
      if (!delegate) {
        const model = property[0]!.toUpperCase() + property.slice(1);
        delegate = new Proxy(value, {
          get(modelDelegate, operation) {
            const method = Reflect.get(modelDelegate, operation);
            if (typeof operation !== "string" || !OPERATIONS.has(operation) || typeof method !== "function") return method;
            return (args: Args = {}) => {
              const values = confinement(model, operation);
              return method.call(modelDelegate, values ? confine(operation, args, values) : args);
            };
          },
        });
        delegates.set(property, delegate);
      }
      return delegate;
    },
  }) as TenantDb;
  tenantClients.set(client, tenant);
  return tenant;
}

/**
 * The Prisma client for tenant data: every query on a tenant model is confined to the current
 * scope here, in one place, so no route can forget it. Another tenant's rows are simply not found
 * (404, never 403). System code that must cross tenants (key lookup by hash, sign-in) uses db().
 * Inside inTransaction() it is that transaction's client, confined the same way.
 */
export function tenantDb(): TenantDb {
  return confined(db());
}

/**
 * The scope of a request: the caller's own account, or the account named by Service-Account-Id
 * when it belongs to the caller's platform (otherwise 404: never reveal another tenant's account).
 */
export function scopeFor(
  actor: { platformId: string; accountId: string; confined: boolean },
  serviceAccountId: string | null,
): Scope | Promise<Scope> {
  const own = { platformId: actor.platformId, accountId: actor.accountId, confined: actor.confined };
  // No header: the caller's own account, known without a query (and without a promise on every request).
  if (serviceAccountId === null || serviceAccountId.trim() === "") return own;
  return namedScope(actor, own, serviceAccountId.trim());
}

async function namedScope(actor: { platformId: string; accountId: string; confined: boolean }, own: Scope, id: string): Promise<Scope> {
  if (!idPattern("acct").test(id)) throw notFound("Account");
  // A sub-account's key may name its own account, and no other.
  if (actor.confined) {
    if (id !== actor.accountId) throw notFound("Account");
    return own;
  }
  const account = await db().account.findFirst({ where: { id, platformId: actor.platformId }, select: { id: true } });
  if (!account) throw notFound("Account");
  return { platformId: actor.platformId, accountId: account.id };
}

/**
 * A raw read of tenant rows (lib/db/raw-read.ts: portable SQL, SQLite's read-only connection or the
 * PostgreSQL pool), for the few hot paths where Prisma's per-query cost dominates the request. The SQL
 * must confine itself with `:accountId`, which is bound here from the current scope, never by the
 * caller, so this stays the one place tenancy is set.
 */
export function tenantRead<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
  if (!/:accountId\b/.test(sql)) throw new Error("tenantRead SQL must filter by :accountId");
  return rawRead<Row>(sql, { ...params, accountId: currentScope().accountId });
}

/**
 * A raw write of tenant rows (lib/db/raw-sql.ts: portable SQL, in the request's transaction), for the
 * hot write paths where a model query's cost dominates the request. Like tenantRead, `:accountId` is
 * bound here from the current scope, never by the caller.
 */
export function tenantExecute(sql: string, params: Record<string, unknown> = {}): Promise<number> {
  if (!/:accountId\b/.test(sql)) throw new Error("tenantExecute SQL must name :accountId");
  return rawExecute(sql, { ...params, accountId: currentScope().accountId });
}
