// The webhooks API (docs/api.md, Webhooks).
import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  createWebhookEndpointInput,
  eventTypeSchema,
  listDeliveriesQuery,
  updateWebhookEndpointInput,
  webhookDeliveryPageSchema,
  webhookDeliveryParams,
  webhookDeliverySchema,
  webhookEndpointParams,
  webhookEndpointSchema,
} from "@/lib/webhooks/schemas";

const define = endpointGroup({ tag: "Webhooks", auth: "any" });

export const listWebhookEventTypesEndpoint = define("GET /v1/webhook_endpoints/events", {
  summary: "The event types an endpoint can subscribe to",
  permission: "webhooks:read",
  response: z.array(eventTypeSchema),
});

export const createWebhookEndpointEndpoint = define("POST /v1/webhook_endpoints", {
  action: "webhook_endpoint.create",
  summary: "Create a webhook endpoint",
  description:
    "Generates the endpoint's own Ed25519 key pair: `publicKey` verifies every delivery's signatures (the private key never " +
    "leaves the service). An endpoint of the platform's own account receives the events of every account of the platform; a " +
    "sub-account's only its own. At most 20 endpoints per account (409). From an employee session, needs `Service-Totp-Code`. " +
    "The caller may subscribe only to event types whose resource it may read (`kyc:read` for `kyc.*`, `employees:read` for " +
    "`employee.*`, and so on): otherwise 403 `err_forbidden` with `details.permission` naming the read permission it lacks.",
  permission: "webhooks:write",
  totp: true,
  body: createWebhookEndpointInput,
  response: webhookEndpointSchema,
  status: 201,
  errors: [409],
});

export const listWebhookEndpointsEndpoint = define("GET /v1/webhook_endpoints", {
  summary: "List the account's webhook endpoints",
  description: "Oldest first; deleted endpoints are not listed.",
  permission: "webhooks:read",
  response: z.array(webhookEndpointSchema),
});

export const getWebhookEndpointEndpoint = define("GET /v1/webhook_endpoints/{id}", {
  summary: "One webhook endpoint",
  permission: "webhooks:read",
  params: webhookEndpointParams,
  response: webhookEndpointSchema,
});

export const updateWebhookEndpointEndpoint = define("POST /v1/webhook_endpoints/{id}", {
  action: "webhook_endpoint.update",
  summary: "Change a webhook endpoint",
  description:
    "Only the fields sent change. `enabled: true` turns on an endpoint that was turned off (by hand, or after 3 days of " +
    "failed deliveries). The key pair stays. From an employee session, needs `Service-Totp-Code`. When `events` or `url` " +
    "changes, the caller must be able to read the resource of every event type the endpoint hears afterwards (so nobody points " +
    "subscriptions they could not make themselves at a new URL): otherwise 403 `err_forbidden` with `details.permission`.",
  permission: "webhooks:write",
  totp: true,
  params: webhookEndpointParams,
  body: updateWebhookEndpointInput,
  response: webhookEndpointSchema,
});

export const deleteWebhookEndpointEndpoint = define("DELETE /v1/webhook_endpoints/{id}", {
  action: "webhook_endpoint.delete",
  summary: "Delete a webhook endpoint",
  description:
    "Nothing more is delivered to it: its pending deliveries are marked failed (`endpoint deleted`), and it answers 404 from " +
    "then on. From an employee session, needs `Service-Totp-Code`.",
  permission: "webhooks:write",
  totp: true,
  params: webhookEndpointParams,
  response: webhookEndpointSchema,
});

export const listWebhookDeliveriesEndpoint = define("GET /v1/webhook_endpoints/{id}/events", {
  summary: "An endpoint's deliveries (its delivery log)",
  description:
    "Cursor-paginated by `occurredAt`, newest first by default. `onlyFailed=true`: deliveries given up on and those whose last " +
    "attempt failed. `startDate`/`endDate` bound `occurredAt` (inclusive). A delivery's `eventData` is shown only to a caller " +
    "who may read that event's resource (`kyc:read` for `kyc.*` events, say); others see the delivery with `eventData: null`.",
  permission: "webhooks:read",
  params: webhookEndpointParams,
  query: listDeliveriesQuery,
  response: webhookDeliveryPageSchema,
});

export const retryWebhookDeliveryEndpoint = define("POST /v1/webhook_endpoints/{id}/events/{eventId}/retry", {
  action: "webhook_delivery.retry",
  summary: "Send a delivery again now",
  description:
    "Queues the delivery for an attempt now (status `pending`; `attempts` keeps counting), whatever its status. A disabled " +
    "endpoint answers 409: enable it first. A caller who may not read the event's resource (`kyc:read` for a `kyc.*` event, " +
    "say) is refused with 403 `err_forbidden`, `details.permission` naming it: a retry resends the data to the URL as it is now.",
  permission: "webhooks:write",
  params: webhookDeliveryParams,
  response: webhookDeliverySchema,
  errors: [409],
});

export const sendTestWebhookEndpoint = define("POST /v1/webhook_endpoints/{id}/test", {
  action: "webhook_endpoint.test",
  summary: "Send a webhook.test event to this endpoint now",
  description:
    "Sent whether or not the endpoint subscribed to `webhook.test`, and to this endpoint only. A disabled endpoint answers 409.",
  permission: "webhooks:write",
  params: webhookEndpointParams,
  response: webhookDeliverySchema,
  status: 201,
  errors: [409],
});
