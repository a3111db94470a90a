import { methods, route } from "@/lib/http/route";
import { deleteWebhookEndpointEndpoint, getWebhookEndpointEndpoint, updateWebhookEndpointEndpoint } from "@/lib/webhooks/endpoints";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: one endpoint. POST: change it. DELETE: delete it (nothing more is delivered to it).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getWebhookEndpointEndpoint, async ({ params }) => getWebhookEndpoint({ id: params.id })),
  POST: route(updateWebhookEndpointEndpoint, async ({ actor, params, body }) => updateWebhookEndpoint({ id: params.id, actor, ...body })),
  DELETE: route(deleteWebhookEndpointEndpoint, async ({ params }) => deleteWebhookEndpoint({ id: params.id })),
});
