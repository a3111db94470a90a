import { z } from "zod";
import { maySeeDerived, type Permission } from "@/lib/auth/permissions";
import { jsonNames, jsonObject } from "@/lib/db/json";
import type { WebhookDelivery, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { dateRangeQuery, rangeInOrder } from "@/lib/contract/date-range";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";
import { EVENT_TYPE_NAMES, isEventType, type EventType } from "@/lib/webhooks/event-types";
import { MAX_WEBHOOK_URL_LENGTH, webhookUrlProblem } from "@/lib/net/address-rules";
import { idSchema } from "@/lib/ids/schema";

/**
 * The URL as written, refused here for what no setting permits (client-safe: the dashboard's forms use
 * it too); create and update then apply the server's WEBHOOK_ALLOW_PRIVATE (lib/webhooks/url-guard.ts).
 */
export const webhookUrlSchema = text()
  .trim()
  .min(1, "is required")
  .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .superRefine((value, context) => {
    const problem = webhookUrlProblem(value, true);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .meta({
    description:
      "Where events are POSTed. `https` only, to a public address: private, loopback, link-local, CGNAT, cloud metadata and " +
      "special-purpose IPv6 addresses (NAT64, 6to4, Teredo, anything outside 2000::/3) are refused, here and again after DNS " +
      "resolution at each delivery (unless the service runs with WEBHOOK_ALLOW_PRIVATE=true, which also allows `http` to loopback). " +
      "Cloud metadata and IPv4-compatible IPv6 (`::/96`, e.g. `[::127.0.0.1]`) are refused whatever the setting. No user name or password in the URL.",
    examples: ["https://example.com/webhooks"],
  });

/** Event types, each checked on its own (the error names its index), de-duplicated in the order given. */
export const subscribedEventsSchema = z
  .array(text().max(100))
  .min(1, "must name at least one event type")
  .max(EVENT_TYPE_NAMES.length * 2)
  .superRefine((list, context) => {
    list.forEach((name, index) => {
      if (!isEventType(name))
        context.addIssue({
          code: "custom",
          path: [index],
          message: `"${name}" is not an event type (see GET /v1/webhook_endpoints/events)`,
        });
    });
  })
  .transform((list) => [...new Set(list.filter(isEventType))])
  .meta({ description: "The event types to receive (GET /v1/webhook_endpoints/events lists them)." });

const descriptionSchema = text()
  .trim()
  .max(500, "must be at most 500 characters")
  .meta({ description: "A note for people: what this endpoint is for." });

export const createWebhookEndpointInput = z
  .object({
    url: webhookUrlSchema,
    description: descriptionSchema.optional(),
    events: subscribedEventsSchema,
    enabled: z
      .boolean()
      .default(true)
      .meta({ description: "False: events are not recorded for it until enabled. Default true." }),
  })
  .meta({ id: "CreateWebhookEndpointInput" });

export const updateWebhookEndpointInput = z
  .object({
    url: webhookUrlSchema.optional(),
    description: descriptionSchema
      .nullable()
      .optional()
      .meta({ description: "A note for people; null or empty clears it." }),
    events: subscribedEventsSchema.optional(),
    enabled: z.boolean().optional().meta({
      description: "Turn delivery on or off (an endpoint turned off after 3 days of failures is turned on here).",
    }),
  })
  .meta({ id: "UpdateWebhookEndpointInput" });

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointInput>;
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointInput>;

export const webhookEndpointParams = z.object({ id: idSchema("we") });
export const webhookDeliveryParams = webhookEndpointParams.extend({ eventId: idSchema("evt") });

export const deliveryStatuses = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const listDeliveriesQuery = pageQuerySchema
  .extend({
    onlyFailed: z
      .enum(["true", "false"], { error: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .optional()
      .meta({
        description:
          "`true`: only deliveries that failed (given up, or the last attempt failed and a retry is pending).",
      }),
    ...dateRangeQuery,
  })
  .refine(...rangeInOrder);

export type ListDeliveriesQuery = z.output<typeof listDeliveriesQuery>;

export const eventTypeSchema = z
  .object({ type: z.enum(EVENT_TYPE_NAMES as [EventType, ...EventType[]]), description: z.string() })
  .meta({ id: "WebhookEventType" });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    ownerId: z.string().meta({
      description: "The account the endpoint belongs to. The platform's own account hears every account's events.",
    }),
    description: z.string().nullable(),
    url: z.string(),
    subscribedEvents: z.array(z.enum(EVENT_TYPE_NAMES as [EventType, ...EventType[]])),
    publicKey: z.string().meta({
      description: "Ed25519 public key (PEM, SubjectPublicKeyInfo): verify each delivery's signatures with it.",
    }),
    enabled: z.boolean(),
    createdAt: z.iso.datetime(),
    createdBy: z
      .object({ type: z.enum(["employee", "api_key"]), id: z.string() })
      .nullable()
      .meta({
        description:
          "The employee or key that created it, as for API keys; null for endpoints made before this was recorded.",
      }),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookDeliverySchema = z
  .object({
    id: z.string().meta({ description: "The event id (`evt_`), also sent as `webhook-id`." }),
    ownerId: z.string(),
    occurredAt: z.iso.datetime(),
    webhookEndpointId: z.string(),
    eventType: z.string(),
    eventData: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({
        description:
          "The resource as the API shows it, with `accountId`. Null when the caller may not read that resource (a derived view is " +
          "bound by the read permission of what it shows: `kyc:read` for `kyc.*` events, `employees:read` for `employee.*`, and so " +
          "on); the delivery itself is still listed.",
      }),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int(),
    responseStatusCode: z.number().int().nullable(),
    responseBody: z.string().nullable().meta({ description: "The first 1 KiB of the last response's body." }),
    lastError: z
      .string()
      .nullable()
      .meta({
        description:
          "Why the last attempt failed: `address not allowed: ...`, `could not resolve <host> (<code>)`, " +
          "`could not connect, or no answer within <n> s` (one message for a refused, reset, filtered, timed-out or TLS " +
          "connection alike, so it cannot tell open ports from closed ones; the service's log has the reason), " +
          "`connection lost while reading the answer (HTTP <status>)`, `HTTP <status>`, `redirect (HTTP <status>) not followed`. " +
          "It never names the address a host name resolved to.",
      }),
    lastAttemptAt: z.iso.datetime().nullable(),
    nextAttemptAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookDeliveryPageSchema = pageSchemaOf(webhookDeliverySchema, "WebhookDeliveryPage");

/** The endpoint as the API shows it: never the private key. */
export function presentWebhookEndpoint(row: WebhookEndpoint) {
  return {
    id: row.id,
    ownerId: row.accountId,
    description: row.description,
    url: row.url,
    subscribedEvents: jsonNames(row.subscribedEvents, isEventType),
    publicKey: row.publicKey,
    enabled: row.enabled,
    createdAt: row.createdAt,
    createdBy: row.createdByType && row.createdById ? { type: row.createdByType, id: row.createdById } : null,
  };
}

/** Who looks at a delivery: a key's own permissions or an employee's role's. */
export type DeliveryViewer = { permissions: readonly Permission[] };

/** A delivery as `viewer` may see it: its event's data only when the viewer may read that event's resource. */
export function presentWebhookDelivery(row: WebhookDelivery, viewer: DeliveryViewer) {
  return {
    id: row.id,
    ownerId: row.accountId,
    occurredAt: row.occurredAt,
    webhookEndpointId: row.webhookEndpointId,
    eventType: row.eventType,
    eventData: row.eventData !== null && maySeeDerived(viewer, row.eventType) ? jsonObject(row.eventData) : null,
    status: row.status,
    attempts: row.attempts,
    responseStatusCode: row.responseStatusCode,
    responseBody: row.responseBody,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.nextAttemptAt,
  };
}
