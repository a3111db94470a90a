import { db } from "@/lib/db";
import { isString, jsonNames } from "@/lib/db/json";
import type { Prisma } from "@/lib/generated/prisma/client";
import { insertsAreDeferred } from "@/lib/db/raw-sql";
import { insertDeliveriesAtCommit, readLiveEndpoints } from "@/lib/webhooks/store";
import type { z } from "zod";
import { newId } from "@/lib/ids/generate";
import { currentScope } from "@/lib/tenancy";
import type { EventType } from "@/lib/webhooks/event-types";

/**
 * Records that `type` happened to a resource of `accountId`: one pending delivery for each enabled
 * endpoint that subscribed to it, of that account or of its platform's own account (which hears
 * every account's events). Call it from the code path that makes the change, inside the request's
 * transaction (every mutating handler runs in one; see lib/http/route.ts), so the change and its
 * event commit together or not at all. `data` is the resource exactly as the API returns it; the
 * event carries `accountId` beside it. The worker (lib/webhooks/worker.ts) sends it.
 */
export async function emitEvent(
  type: EventType,
  /** The data, or a function that makes it: called only when some endpoint listens. */
  data: object | (() => object),
  {
    accountId,
    platformId,
    now = new Date(),
  }: {
    accountId: string;
    /** The account's platform, when the caller knows it (saves a query). */ platformId?: string;
    now?: Date;
  },
) {
  // System code: the platform's endpoints are outside a sub-account's tenant scope.
  platformId ??= (await db().account.findUniqueOrThrow({ where: { id: accountId }, select: { platformId: true } }))
    .platformId;
  if (insertsAreDeferred()) return recordDeliveriesAtCommit(type, data, { accountId, platformId, now });
  // Raw (lib/webhooks/store.ts): every change looks, and most platforms have no endpoint to find.
  const endpoints = await readLiveEndpoints(accountId, platformId);
  const listening = endpoints.filter((endpoint) => jsonNames(endpoint.subscribedEvents, isString).includes(type));
  if (listening.length === 0) return 0;
  // As the API shows it: Dates as ISO strings, no undefined properties.
  const plain: Prisma.InputJsonObject = JSON.parse(JSON.stringify(typeof data === "function" ? data() : data));
  const eventData = { ...plain, accountId };
  const rows = listening.map((endpoint) => ({
    id: newId("evt"),
    accountId: endpoint.accountId,
    webhookEndpointId: endpoint.id,
    eventType: type,
    eventData,
    occurredAt: now,
    nextAttemptAt: now,
  }));
  await db().webhookDelivery.createMany({ data: rows });
  return rows.length;
}

/**
 * emitEvent on PostgreSQL inside a transaction: the look-up of the listening endpoints and the insert
 * of their deliveries are one INSERT ... SELECT, put off to the transaction's one statement before
 * COMMIT (lib/webhooks/store.ts), so a change with its audit record and its events costs one
 * round trip, and none is spent asking whether anything listens. The endpoints found are held (key
 * share) until the transaction ends: a change of their URL or events, or their deletion, waits for the
 * deliveries recorded here and then sees them (lib/webhooks/webhook-endpoints.ts), and one that
 * committed first is what the SELECT sees. Answers null: how many listened is known only at COMMIT.
 */
async function recordDeliveriesAtCommit(
  type: EventType,
  data: object | (() => object),
  { accountId, platformId, now }: { accountId: string; platformId: string; now: Date },
) {
  const plain: Prisma.InputJsonObject = JSON.parse(JSON.stringify(typeof data === "function" ? data() : data));
  await insertDeliveriesAtCommit({
    type,
    eventData: JSON.stringify({ ...plain, accountId }),
    now,
    accountId,
    platformId,
  });
  return null;
}

/**
 * emitEvent for a resource exactly as its route answers it: `resource` goes through the same JSON
 * round trip and response `schema` as the route wrapper's output (which drops any field not in the
 * schema, so a secret the presenter carries, a key's `secret` say, never reaches an event), when
 * some endpoint listens. The account defaults to the current tenant scope's.
 */
export async function emitResourceEvent<S extends z.ZodType>(
  type: EventType,
  schema: S,
  resource: unknown,
  { accountId, now }: { accountId?: string; now?: Date } = {},
) {
  const data = () => schema.parse(JSON.parse(JSON.stringify(resource))) as object;
  if (accountId !== undefined) return emitEvent(type, data, { accountId, now });
  const scope = currentScope();
  return emitEvent(type, data, { accountId: scope.accountId, platformId: scope.platformId, now });
}

/**
 * A change only one caller makes, announced once (revoking a key, deactivating a virtual account or an
 * employee). `change` makes it only where it is still to be made (a condition in its `where`) and
 * answers how many rows it changed; `reread` then reads the resource as the API returns it. Of two
 * concurrent callers, or a second call, only the one that changed the row emits `type`: doing it
 * again is no change and no event.
 */
export async function changeOnce<S extends z.ZodType, T>(
  type: EventType,
  schema: S,
  {
    change,
    reread,
    accountId,
  }: { change: () => Promise<{ count: number }>; reread: () => Promise<T>; accountId?: string },
): Promise<T> {
  const { count } = await change();
  const resource = await reread();
  if (count === 1) await emitResourceEvent(type, schema, resource, { accountId });
  return resource;
}
