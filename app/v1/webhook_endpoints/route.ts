import { methods, route } from "@/lib/http/route";
import { createWebhookEndpointEndpoint, listWebhookEndpointsEndpoint } from "@/lib/webhooks/endpoints";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: the account's webhook endpoints. POST: create one, with its own Ed25519 key pair, recording who created it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listWebhookEndpointsEndpoint, async () => listWebhookEndpoints()),
  POST: route(createWebhookEndpointEndpoint, async ({ actor, body }) => createWebhookEndpoint({ ...body, createdBy: { type: actor.type, id: actor.id } })),
});
