import { db } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { requestContext, type Scope } from "@/lib/request-context";

// tenantDb(): the Prisma client confined to the request's tenant scope (lib/tenancy.ts sets it).

/** The scope tenant queries are confined to; outside one, a thrown error (never "all tenants"). */
export function currentScope(): Scope {
  const scope = requestContext()?.scope;
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
  "InformationRequestEvent",
  "InformationRequestNote",
  "InformationRequestDocument",
  "WebhookEndpoint",
  "WebhookDelivery",
]);

/** The column values that confine a model's rows to the current scope, or null for models that are not tenant data. */
function confinement(model: string, operation: string): Record<string, string> | null {
  const scope = currentScope();
  if (accountOwned.has(model)) return { accountId: scope.accountId };
  // A confined caller sees its own account only (never creates one: account creation is platform-wide).
  if (model === "Account")
    return scope.confined && !operation.startsWith("create")
      ? { platformId: scope.platformId, id: scope.accountId }
      : { platformId: scope.platformId };
  if (model === "AuditEvent" || model === "AuditCheckpoint") return { platformId: scope.platformId };
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

const isObject = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

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
        throw new Error(
          `Tenancy: a nested write through ${model}.${field} is refused; write each row through its own delegate`,
        );
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
      throw new Error(
        `Tenancy: a ${model} write ${written === undefined ? `without ${column}` : `naming another tenant's ${column}`} is refused`,
      );
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
 * transaction's client (inTransaction), which Prisma does not let one extend. `$transaction` (outside
 * inTransaction(); inside, db()'s refuses it) hands its callback the confined transaction client; its
 * array form passes through (its queries were made on this proxy, so they are confined already).
 */
function tenantClientOf<Client extends object>(client: Client): Client {
  const delegates = new Map<string, unknown>();
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "$transaction" && typeof value === "function") {
        return (work: unknown, ...options: unknown[]) =>
          Reflect.apply(value, target, [
            typeof work === "function" ? (tx: object) => work(tenantClientOf(tx)) : work,
            ...options,
          ]);
      }
      if (typeof property !== "string" || property.startsWith("$") || typeof value !== "object" || value === null)
        return value;
      let delegate = delegates.get(property);
      if (!delegate) {
        const model = property[0]!.toUpperCase() + property.slice(1);
        delegate = new Proxy(value, {
          get(modelDelegate, operation) {
            const method = Reflect.get(modelDelegate, operation);
            if (typeof operation !== "string" || !OPERATIONS.has(operation) || typeof method !== "function")
              return method;
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
    tenant = tenantClientOf(client);
    tenantClients.set(client, tenant);
  }
  return tenant;
}
