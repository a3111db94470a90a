// Endpoint definitions of the webhooks API (CONTRACT.md, "Webhooks"): each is used by its route file and by the OpenAPI document.
import { z } from "zod";
import { endpoint } from "@/lib/http/endpoint";
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

const tag = "Webhooks";

export const listWebhookEventTypesEndpoint = endpoint({
  method: "GET",
  path: "/v1/webhook_endpoints/events",
  tag,
  summary: "The event types an endpoint can subscribe to",
  auth: "any",
  permission: "webhooks:read",
  response: z.array(eventTypeSchema),
  errors: [],
});

export const createWebhookEndpointEndpoint = endpoint({
  method: "POST",
  path: "/v1/webhook_endpoints",
  tag,
  action: "webhook_endpoint.create",
  summary: "Create a webhook endpoint",
  description:
    "Generates the endpoint's own Ed25519 key pair: `publicKey` verifies every delivery's signatures (the private key never " +
    "leaves the service). An endpoint of the platform's own account receives the events of every account of the platform; a " +
    "sub-account's only its own. At most 20 endpoints per account (409). From an employee session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "webhooks:write",
  totp: true,
  body: createWebhookEndpointInput,
  response: webhookEndpointSchema,
  status: 201,
  errors: [409],
});

export const listWebhookEndpointsEndpoint = endpoint({
  method: "GET",
  path: "/v1/webhook_endpoints",
  tag,
  summary: "List the account's webhook endpoints",
  description: "Oldest first; deleted endpoints are not listed.",
  auth: "any",
  permission: "webhooks:read",
  response: z.array(webhookEndpointSchema),
  errors: [],
});

export const getWebhookEndpointEndpoint = endpoint({
  method: "GET",
  path: "/v1/webhook_endpoints/{id}",
  tag,
  summary: "One webhook endpoint",
  auth: "any",
  permission: "webhooks:read",
  params: webhookEndpointParams,
  response: webhookEndpointSchema,
  errors: [],
});

export const updateWebhookEndpointEndpoint = endpoint({
  method: "POST",
  path: "/v1/webhook_endpoints/{id}",
  tag,
  action: "webhook_endpoint.update",
  summary: "Change a webhook endpoint",
  description:
    "Only the fields sent change. `enabled: true` turns on an endpoint that was turned off (by hand, or after 3 days of " +
    "failed deliveries). The key pair stays. From an employee session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "webhooks:write",
  totp: true,
  params: webhookEndpointParams,
  body: updateWebhookEndpointInput,
  response: webhookEndpointSchema,
  errors: [],
});

export const deleteWebhookEndpointEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/webhook_endpoints/{id}",
  tag,
  action: "webhook_endpoint.delete",
  summary: "Delete a webhook endpoint",
  description:
    "Nothing more is delivered to it: its pending deliveries are marked failed (`endpoint deleted`), and it answers 404 from " +
    "then on. From an employee session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "webhooks:write",
  totp: true,
  params: webhookEndpointParams,
  response: webhookEndpointSchema,
  errors: [],
});

export const listWebhookDeliveriesEndpoint = endpoint({
  method: "GET",
  path: "/v1/webhook_endpoints/{id}/events",
  tag,
  summary: "An endpoint's deliveries (its delivery log)",
  description:
    "Cursor-paginated by `occurredAt`, newest first by default. `onlyFailed=true`: deliveries given up on and those whose last " +
    "attempt failed. `startDate`/`endDate` bound `occurredAt` (inclusive).",
  auth: "any",
  permission: "webhooks:read",
  params: webhookEndpointParams,
  query: listDeliveriesQuery,
  response: webhookDeliveryPageSchema,
  errors: [],
});

export const retryWebhookDeliveryEndpoint = endpoint({
  method: "POST",
  path: "/v1/webhook_endpoints/{id}/events/{eventId}/retry",
  tag,
  action: "webhook_delivery.retry",
  summary: "Send a delivery again now",
  description:
    "Queues the delivery for an attempt now (status `pending`; `attempts` keeps counting), whatever its status. A disabled " +
    "endpoint answers 409: enable it first.",
  auth: "any",
  permission: "webhooks:write",
  params: webhookDeliveryParams,
  response: webhookDeliverySchema,
  errors: [409],
});

export const sendTestWebhookEndpoint = endpoint({
  method: "POST",
  path: "/v1/webhook_endpoints/{id}/test",
  tag,
  action: "webhook_endpoint.test",
  summary: "Send a webhook.test event to this endpoint now",
  description: "Sent whether or not the endpoint subscribed to `webhook.test`, and to this endpoint only. A disabled endpoint answers 409.",
  auth: "any",
  permission: "webhooks:write",
  params: webhookEndpointParams,
  response: webhookDeliverySchema,
  status: 201,
  errors: [409],
});
