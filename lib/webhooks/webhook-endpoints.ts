import { generateKeyPairSync } from "node:crypto";
import { assertMaySeeDerived, type PermissionHolder } from "@/lib/auth/authorize";
import { assertCreatorStillActive } from "@/lib/auth/creator";
import { encryptSecret } from "@/lib/auth/encryption";
import { inTransaction, lockRow, readLocked } from "@/lib/db";
import { jsonNames } from "@/lib/db/json";
import type { KeyCreator } from "@/lib/api-keys/schemas";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { withinRange } from "@/lib/contract/date-range";
import { paginate } from "@/lib/contract/pagination";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { EVENT_TYPES, EVENT_TYPE_NAMES, isEventType } from "@/lib/webhooks/event-types";
import {
  presentWebhookDelivery,
  type DeliveryViewer,
  presentWebhookEndpoint,
  type CreateWebhookEndpointInput,
  type ListDeliveriesQuery,
  type UpdateWebhookEndpointInput,
} from "@/lib/webhooks/schemas";
import { checkWebhookUrl } from "@/lib/webhooks/url-guard";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's endpoint or delivery is simply not found (404, never 403).

/** Endpoints one account may have at once (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

export function listEventTypes() {
  return EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type] }));
}

/** A new Ed25519 key pair: the public key as SPKI PEM (shown), the private one as PKCS#8 PEM (encrypted at rest). */
function newKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/**
 * 403 unless the caller may read the resource of every event type given (docs/security.md, Who may
 * do what): an endpoint is a derived view of what it hears, so nobody subscribes to what they may
 * not read themselves.
 */
export function assertMaySubscribe(actor: PermissionHolder, events: readonly string[]) {
  assertMaySeeDerived(actor, events, (type) => `subscribe an endpoint to ${type} events`);
}

const emptyToNull = (value: string | null | undefined) => (value ? value : null);

/**
 * Creates an endpoint for the scope's account, with its own key pair (the private key encrypted, bound
 * to the endpoint id). `createdBy` is the caller, recorded as for keys: offboarding its creator lists it.
 */
export async function createWebhookEndpoint(input: CreateWebhookEndpointInput & { createdBy?: KeyCreator | null }) {
  // In one transaction (the request's, when there is one), which the locks below last for.
  return inTransaction(() => createEndpointRow(input));
}

async function createEndpointRow({
  createdBy = null,
  ...input
}: CreateWebhookEndpointInput & { createdBy?: KeyCreator | null }) {
  // The schema checked the URL already; checked here too for callers that are not the API (the dashboard, a seed).
  checkWebhookUrl(input.url);
  // The account's row held until the transaction ends: two creations at once count one after the other.
  // Taken before the creator's row, in the order offboarding takes them (the platform account, then
  // the employee), so the two cannot wait for each other.
  await lockRow("Account", scopeAccountId(), "change");
  await assertCreatorStillActive(createdBy);
  const count = await tenantDb().webhookEndpoint.count({ where: { deletedAt: null } });
  if (count >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw new DomainError(
      "conflict",
      `An account may have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
    );
  }
  const id = newId("we");
  const { publicKey, privateKeyPem } = newKeyPair();
  const row = await tenantDb().webhookEndpoint.create({
    data: {
      id,
      accountId: scopeAccountId(),
      url: input.url,
      description: emptyToNull(input.description),
      subscribedEvents: input.events,
      enabled: input.enabled,
      publicKey,
      privateKey: encryptSecret(privateKeyPem, id),
      createdByType: createdBy?.type ?? null,
      createdById: createdBy?.id ?? null,
    },
  });
  return presentWebhookEndpoint(row);
}

/**
 * An endpoint held (lockRow) against emitEvent, which holds the endpoints it records deliveries for
 * (key share) until its transaction ends: a change of where or what an endpoint sends, or its
 * deletion, waits for deliveries being recorded for it right now, and then sees them (they are the
 * pending deliveries a URL change checks, and that a deletion fails).
 */
const findEndpointForChange = (id: string) => readLocked("WebhookEndpoint", "update", () => findEndpoint(id));

/** Runs a change of one endpoint in one transaction (the request's, when there is one), which its lock lasts for. */
const changingEndpoint = <T>(work: () => Promise<T>) => inTransaction(work);

async function findEndpoint(id: string) {
  const row = await tenantDb().webhookEndpoint.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/** The scope's endpoints, oldest first. */
export async function listWebhookEndpoints() {
  const rows = await tenantDb().webhookEndpoint.findMany({
    where: { deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(presentWebhookEndpoint);
}

export async function getWebhookEndpoint({ id }: { id: string }) {
  return presentWebhookEndpoint(await findEndpoint(id));
}

/**
 * Changes the fields given. Enabling clears the automatic disable; the key pair stays. A change of
 * the events or the URL needs a caller who may read every event type the endpoint hears afterwards
 * (assertMaySubscribe), so nobody points subscriptions they could not make at a new URL; a new URL also
 * needs the event types of the deliveries still pending, which the worker would send there. A URL change
 * writes the event list it checked with it: a concurrent change of the events cannot slip unchecked
 * events under the new URL (the last write sets both).
 */
export function updateWebhookEndpoint(input: UpdateWebhookEndpointInput & { id: string; actor: PermissionHolder }) {
  return changingEndpoint(() => updateEndpointRow(input));
}

async function updateEndpointRow({
  id,
  actor,
  ...input
}: UpdateWebhookEndpointInput & { id: string; actor: PermissionHolder }) {
  const row = await findEndpointForChange(id);
  if (input.url !== undefined) checkWebhookUrl(input.url);
  const events = input.events ?? jsonNames(row.subscribedEvents, isEventType);
  if (input.events !== undefined || input.url !== undefined) assertMaySubscribe(actor, events);
  if (input.url !== undefined && input.url !== row.url) {
    // Deliveries still pending go to the new URL too, whatever the endpoint hears now: so do their event types.
    const pending = await tenantDb().webhookDelivery.findMany({
      where: { webhookEndpointId: row.id, status: "pending" },
      distinct: ["eventType"],
      select: { eventType: true },
    });
    assertMaySubscribe(
      actor,
      pending.map((delivery) => delivery.eventType),
    );
  }
  const data = {
    ...(input.url !== undefined && { url: input.url, subscribedEvents: events }),
    ...(input.description !== undefined && { description: emptyToNull(input.description) }),
    ...(input.events !== undefined && { subscribedEvents: events }),
    ...(input.enabled !== undefined && { enabled: input.enabled, ...(input.enabled && { disabledAt: null }) }),
  };
  // Guarded on deletedAt so a concurrent delete is not undone.
  const { count } = await tenantDb().webhookEndpoint.updateMany({ where: { id: row.id, deletedAt: null }, data });
  if (count === 0) throw notFound("Webhook endpoint");
  // The endpoint as it was, for the audit trail.
  return { endpoint: presentWebhookEndpoint(await findEndpoint(row.id)), before: presentWebhookEndpoint(row) };
}

/** What the audit trail keeps of an endpoint: where it sends, what, and whether (never a key). */
export function webhookEndpointFacts(endpoint: ReturnType<typeof presentWebhookEndpoint>) {
  return {
    url: endpoint.url,
    subscribedEvents: endpoint.subscribedEvents,
    enabled: endpoint.enabled,
    description: endpoint.description,
  };
}

/**
 * Deletes an endpoint (soft: the row stays for its delivery log): nothing more is recorded or sent
 * for it, its pending deliveries become failed, and it answers 404 from then on.
 */
export function deleteWebhookEndpoint(input: { id: string; now?: Date }) {
  return changingEndpoint(() => deleteEndpointRow(input));
}

async function deleteEndpointRow({ id, now = new Date() }: { id: string; now?: Date }) {
  const row = await findEndpointForChange(id);
  const { count } = await tenantDb().webhookEndpoint.updateMany({
    where: { id: row.id, deletedAt: null },
    data: { deletedAt: now, enabled: false },
  });
  if (count === 0) throw notFound("Webhook endpoint");
  await tenantDb().webhookDelivery.updateMany({
    where: { webhookEndpointId: row.id, status: "pending" },
    data: { status: "failed", lastError: "endpoint deleted", nextAttemptAt: null },
  });
  return presentWebhookEndpoint({ ...row, enabled: false });
}

/**
 * A page of an endpoint's deliveries by occurredAt; onlyFailed keeps the given-up ones and those whose
 * last attempt failed. Each delivery's `eventData` only for a viewer who may read its event's resource.
 */
export async function listWebhookDeliveries({
  id,
  viewer,
  onlyFailed,
  startDate,
  endDate,
  ...page
}: ListDeliveriesQuery & { id: string; viewer: DeliveryViewer }) {
  const endpoint = await findEndpoint(id);
  const filters = [
    { webhookEndpointId: endpoint.id },
    ...(onlyFailed ? [{ OR: [{ status: "failed" }, { status: "pending", attempts: { gt: 0 } }] }] : []),
    ...(startDate || endDate ? [{ occurredAt: withinRange({ startDate, endDate }) }] : []),
  ];
  const result = await paginate(
    page,
    (args) => tenantDb().webhookDelivery.findMany({ ...args, where: { AND: [args.where, ...filters] } }),
    "occurredAt",
  );
  return { ...result, items: result.items.map((row) => presentWebhookDelivery(row, viewer)) };
}

async function enabledEndpoint(id: string) {
  const endpoint = await findEndpoint(id);
  if (!endpoint.enabled)
    throw new DomainError("conflict", `Webhook endpoint ${endpoint.id} is disabled; enable it first`, {
      id: "is disabled",
    });
  return endpoint;
}

/**
 * Queues a delivery for an attempt now, whatever its status; its attempts keep counting. Refused (403)
 * to a caller who may not read the event's resource: a retry resends data to wherever the URL points now.
 */
export async function retryWebhookDelivery({
  id,
  eventId,
  actor,
  now = new Date(),
}: {
  id: string;
  eventId: string;
  actor: PermissionHolder;
  now?: Date;
}) {
  const endpoint = await enabledEndpoint(id);
  const delivery = await tenantDb().webhookDelivery.findFirst({
    where: { id: eventId, webhookEndpointId: endpoint.id },
  });
  if (!delivery) throw notFound("Webhook event");
  // The event type of a delivery never changes, so this check cannot go stale before the write.
  assertMaySeeDerived(actor, [delivery.eventType], (type) => `retry a ${type} delivery`);
  // Conditional on the payload: the retention sweep removes old payloads of deliveries not being attempted,
  // so of a retry and a sweep racing, one wins, and no delivery is ever attempted without its payload.
  const [updated] = await tenantDb().webhookDelivery.updateManyAndReturn({
    where: { id: delivery.id, eventData: { not: Prisma.DbNull } },
    data: { status: "pending", nextAttemptAt: now },
  });
  if (!updated)
    throw new DomainError(
      "conflict",
      "This delivery's payload was removed under the platform's webhook payload retention: it cannot be sent again",
    );
  return presentWebhookDelivery(updated, actor);
}

/** A webhook.test delivery for this endpoint only, due now (sent whether or not it subscribed to webhook.test); shown as `viewer` may see it. */
export async function sendTestEvent({
  id,
  viewer,
  now = new Date(),
}: {
  id: string;
  viewer: DeliveryViewer;
  now?: Date;
}) {
  const endpoint = await enabledEndpoint(id);
  const data = {
    webhookEndpointId: endpoint.id,
    message: "A test event: this endpoint receives and verifies webhooks.",
    accountId: scopeAccountId(),
  };
  const row = await tenantDb().webhookDelivery.create({
    data: {
      id: newId("evt"),
      accountId: scopeAccountId(),
      webhookEndpointId: endpoint.id,
      eventType: "webhook.test",
      eventData: data,
      occurredAt: now,
      nextAttemptAt: now,
    },
  });
  return presentWebhookDelivery(row, viewer);
}
