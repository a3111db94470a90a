import type { WebhookDelivery, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { type ColumnList, deferredInsert, quotedColumns as quoted, rawQuery } from "@/lib/db";

// The webhooks' raw statements: which endpoints listen (every change asks), and the deliveries a change
// makes on PostgreSQL, sent with its other inserts just before COMMIT.

/** What emitEvent needs of an endpoint to tell whether it listens. */
export const LISTENING_ENDPOINT_COLUMNS = {
  model: "WebhookEndpoint",
  columns: ["id", "accountId", "subscribedEvents"],
  omitted: [
    "url",
    "description",
    "enabled",
    "publicKey",
    "privateKey",
    "createdAt",
    "disabledAt",
    "deletedAt",
    "createdByType",
    "createdById",
  ],
} as const satisfies ColumnList<WebhookEndpoint>;

/** The enabled, undeleted endpoints of an account and of its platform's own account, in the caller's transaction. */
export function readLiveEndpoints(
  accountId: string,
  platformId: string,
): Promise<Pick<WebhookEndpoint, (typeof LISTENING_ENDPOINT_COLUMNS.columns)[number]>[]> {
  return rawQuery(
    `SELECT ${quoted("", LISTENING_ENDPOINT_COLUMNS.columns)} FROM "WebhookEndpoint"
     WHERE "accountId" IN (:accountId, :platformId) AND "enabled" = :enabled AND "deletedAt" IS NULL`,
    { accountId, platformId, enabled: true },
  );
}

/** A new delivery's columns; the others keep their defaults (pending, no attempt yet). */
export const DELIVERY_INSERT_COLUMNS = {
  model: "WebhookDelivery",
  columns: ["id", "accountId", "webhookEndpointId", "eventType", "eventData", "occurredAt", "nextAttemptAt"],
  omitted: [
    "status",
    "attempts",
    "responseStatusCode",
    "responseBody",
    "lastError",
    "lastAttemptAt",
    "leaseUntil",
    "leaseOwner",
  ],
} as const satisfies ColumnList<WebhookDelivery>;

/**
 * PostgreSQL, in a transaction: one pending delivery of `type` for each live endpoint of the account
 * or its platform that subscribed to it, as one INSERT ... SELECT put off to the statement before
 * COMMIT (deferredInsert). The endpoints found are held (FOR KEY SHARE) until the transaction ends.
 */
export function insertDeliveriesAtCommit({
  type,
  eventData,
  now,
  accountId,
  platformId,
}: {
  type: string;
  eventData: string;
  now: Date;
  accountId: string;
  platformId: string;
}): Promise<void> {
  return deferredInsert(
    `INSERT INTO "WebhookDelivery" (${quoted("", DELIVERY_INSERT_COLUMNS.columns)})
     SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), e."accountId", e."id", :type, CAST(:eventData AS jsonb), :now, :now
     FROM "WebhookEndpoint" e
     WHERE e."accountId" IN (:accountId, :platformId) AND e."enabled" AND e."deletedAt" IS NULL AND e."subscribedEvents" @> CAST(:types AS jsonb)
     FOR KEY SHARE OF e`,
    { type, eventData, now, accountId, platformId, types: JSON.stringify([type]) },
  );
}
