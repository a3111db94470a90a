import { db } from "@/lib/db";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { rawRead, type Rows } from "@/lib/db/raw-read";
import { isThenable, type MaybePromise } from "@/lib/maybe-promise";
import { deferredInsert, rawExecute } from "@/lib/db/raw-sql";
import { notFound } from "@/lib/errors";
import { idPattern } from "@/lib/ids/schema";
import { requestContext, withinContext } from "@/lib/request-context";

/**
 * The tenant a request acts in: its platform, and the account within it (its own, or
 * Service-Account-Id's). `confined` (a sub-account's key): the platform's other accounts do not exist for it.
 */
export type Scope = { platformId: string; accountId: string; confined?: boolean };

/** Runs `work` with every tenantDb() query confined to `scope`. */
export function withScope<T>(scope: Scope, work: () => MaybePromise<T>): Promise<T> {
  return Promise.resolve(inScope(scope, work));
}

/**
 * withScope for the route wrapper, whose hot handlers answer at once on SQLite: an answer given at
 * once stays one (no promise made, lib/maybe-promise.ts). A Prisma query is lazy (it runs when
 * awaited, and is no Promise): it is settled here, inside the scope, not after the scope ended.
 */
export function inScope<T>(scope: Scope, work: () => MaybePromise<T>): MaybePromise<T> {
  return withinContext({ scope }, () => {
    const result = work();
    return result instanceof Promise || !isThenable(result) ? result : Promise.resolve(result);
  });
}

export function currentScope(): Scope {
  const scope = requestContext()?.scope;
  // Fail closed: a tenant query with no tenant is a bug, never "all tenants".
  if (!scope) throw new Error("Tenant data was queried outside a tenant scope (withScope)");
  return scope;
}

/** The account of the current scope: the value a new row of an account's data carries. */
export const scopeAccountId = () => currentScope().accountId;

/** The platform of the current scope: the value a new account or employee row is written with. */
export const scopePlatformId = () => currentScope().platformId;

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
function confinement(model: string, operation: string): Record<string, string> | null {
  const scope = currentScope();
  if (accountOwned.has(model)) return { accountId: scope.accountId };
  // A confined caller sees its own account only (never creates one: account creation is platform-wide).
  if (model === "Account") return scope.confined && !operation.startsWith("create") ? { platformId: scope.platformId, id: scope.accountId } : { platformId: scope.platformId };
  if (model === "AuditEvent") return { platformId: scope.platformId };
  // Employees belong to the platform's own account, whose id is the platform id.
  if (model === "Employee") return { accountId: scope.platformId };
  return null;
}

type Where = { AND?: object | object[] };
type Row = Record<string, unknown>;
type Args = { where?: Where; data?: Row | Row[]; create?: Row; update?: Row };

/**
 * The query's own filter AND the scope's: added as a condition, never merged over the query's keys,
 * so a query naming another row (`id`, say) finds nothing instead of being redirected to the caller's.
 */
const within = (where: Where | undefined, values: Record<string, string>): Where => ({
  ...where,
  AND: [...([] as object[]).concat(where?.AND ?? []), values],
});

const isObject = (value: unknown): value is Row => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Each model's columns (Prisma's `<Model>ScalarFieldEnum`): any other key of a write's data is a relation field. */
const generated: Record<string, unknown> = Prisma;
const columns = new Map<string, Set<string>>(
  Object.values(Prisma.ModelName).map((model) => {
    const fields = generated[`${model}ScalarFieldEnum`];
    return [model, new Set(isObject(fields) ? Object.keys(fields) : [])];
  }),
);

/**
 * Refuses a nested write (rows created or changed through a relation field of the data): it would
 * write tenant rows the checks below never see. Tenant code writes each row through its own delegate;
 * linking an existing row (`connect`) writes none.
 */
function assertNotNested(model: string, rows: unknown) {
  for (const row of ([] as unknown[]).concat(rows ?? [])) {
    if (!isObject(row)) continue;
    for (const [field, value] of Object.entries(row)) {
      if (columns.get(model)?.has(field) || !isObject(value)) continue;
      if (Object.keys(value).some((operation) => operation !== "connect")) {
        throw new Error(`Tenancy: a nested write through ${model}.${field} is refused; write each row through its own delegate`);
      }
    }
  }
}

/**
 * Refuses a write whose data does not carry the scope's values: a new row must name them (`creating`),
 * and no write may name another tenant's. A plain Error (a logged 500): it is a bug in the code that
 * wrote the query, never the caller's input, and a wrong value is refused, never corrected.
 */
function assertScoped(model: string, row: unknown, values: Record<string, string>, creating: boolean) {
  if (!isObject(row)) throw new Error(`Tenancy: a ${model} write without data`);
  for (const [column, value] of Object.entries(values)) {
    if (column === "id") continue;
    const written = row[column];
    if (written === undefined ? creating : written !== value) {
      throw new Error(`Tenancy: a ${model} write ${written === undefined ? `without ${column}` : `naming another tenant's ${column}`} is refused`);
    }
  }
}

function confine(model: string, operation: string, args: Args, values: Record<string, string>): Args {
  switch (operation) {
    case "create":
      assertScoped(model, args.data, values, true);
      return args;
    case "createMany":
    case "createManyAndReturn":
      for (const row of ([] as unknown[]).concat(args.data ?? [])) assertScoped(model, row, values, true);
      return args;
    case "upsert":
      assertScoped(model, args.create, values, true);
      assertScoped(model, args.update, values, false);
      return { ...args, where: within(args.where, values) };
    case "update":
    case "updateMany":
    case "updateManyAndReturn":
      assertScoped(model, args.data, values, false);
      return { ...args, where: within(args.where, values) };
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

/**
 * `client` (the Prisma client, or a transaction's) with every model operation confined to the
 * current scope. A proxy rather than a Prisma client extension, because it must also wrap a
 * transaction's client (inTransaction), which Prisma does not let one extend. `$transaction` hands
 * its callback the confined transaction client; its array form passes through (its queries were
 * made on this proxy, so they are confined already).
 */
function confined<Client extends object>(client: Client): Client {
  const delegates = new Map<string, unknown>();
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "$transaction" && typeof value === "function") {
        return (work: unknown, ...options: unknown[]) =>
          Reflect.apply(value, target, [typeof work === "function" ? (tx: object) => work(confined(tx)) : work, ...options]);
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
              let confinedArgs: Args;
              try {
                assertNotNested(model, operation === "upsert" ? [args.create, args.update] : args.data);
                const values = confinement(model, operation);
                confinedArgs = values ? confine(model, operation, args, values) : args;
              } catch (error) {
                // Refused the way a failed query is: as the promise the caller awaits.
                return Promise.reject(error);
              }
              return method.call(modelDelegate, confinedArgs);
            };
          },
        });
        delegates.set(property, delegate);
      }
      return delegate;
    },
  });
}

const tenantClients = new WeakMap<PrismaClient, TenantDb>();

/**
 * The Prisma client for tenant data: every query on a tenant model is confined to the current
 * scope here, in one place, so no route can forget it. Another tenant's rows are simply not found
 * (404, never 403). System code that must cross tenants (key lookup by hash, sign-in) uses db().
 * Inside inTransaction() it is that transaction's client, confined the same way.
 */
export function tenantDb(): TenantDb {
  const client = db();
  let tenant = tenantClients.get(client);
  if (!tenant) {
    tenant = confined(client);
    tenantClients.set(client, tenant);
  }
  return tenant;
}

/**
 * The scope of a request: the caller's own account, or the account named by Service-Account-Id
 * when it belongs to the caller's platform (otherwise 404: never reveal another tenant's account).
 */
type ScopeHolder = { platformId: string; accountId: string; confined: boolean; serviceAccount?: { id: string; inPlatform: boolean } };

export function scopeFor(
  actor: ScopeHolder,
  serviceAccountId: string | null,
): Scope | Promise<Scope> {
  const own = { platformId: actor.platformId, accountId: actor.accountId, confined: actor.confined };
  // No header: the caller's own account, known without a query (and without a promise on every request).
  if (serviceAccountId === null || serviceAccountId.trim() === "") return own;
  return namedScope(actor, own, serviceAccountId.trim());
}

function namedScope(actor: ScopeHolder, own: Scope, id: string): Scope | Promise<Scope> {
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
  return db()
    .account.findFirst({ where: { id, platformId: actor.platformId }, select: { id: true } })
    .then((account) => {
      if (!account) throw notFound("Account");
      return { platformId: actor.platformId, accountId: account.id };
    });
}

/**
 * A raw read of tenant rows (lib/db/raw-read.ts: portable SQL, SQLite's read-only connection or the
 * PostgreSQL pool), for the few hot paths where Prisma's per-query cost dominates the request. The SQL
 * must confine itself with `:accountId`, which is bound here from the current scope, never by the
 * caller, so this stays the one place tenancy is set.
 */
export function tenantRead<Row>(sql: string, params: Record<string, unknown> = {}): MaybePromise<Rows<Row>> {
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

/** deferredInsert (lib/db/raw-sql.ts) of tenant rows: like tenantExecute, `:accountId` is bound here from the current scope. */
export function tenantDeferredInsert(sql: string, params: Record<string, unknown>, options: { conflict?: () => Error } = {}): Promise<void> {
  if (!/:accountId\b/.test(sql)) throw new Error("tenantDeferredInsert SQL must name :accountId");
  return deferredInsert(sql, { ...params, accountId: currentScope().accountId }, options);
}
