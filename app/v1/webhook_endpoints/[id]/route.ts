import { methods, route } from "@/lib/http/route";
import {
  deleteWebhookEndpointEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
} from "@/lib/webhooks/endpoints";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  webhookEndpointFacts,
} from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: one endpoint. POST: change it. DELETE: delete it (nothing more is delivered to it).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getWebhookEndpointEndpoint, async ({ params }) => getWebhookEndpoint({ id: params.id })),
  POST: route(updateWebhookEndpointEndpoint, async ({ actor, params, body, audit }) => {
    const { endpoint, before } = await updateWebhookEndpoint({ id: params.id, actor, ...body });
    audit.details = { before: webhookEndpointFacts(before), after: webhookEndpointFacts(endpoint) };
    return endpoint;
  }),
  DELETE: route(deleteWebhookEndpointEndpoint, async ({ params, audit }) => {
    const deleted = await deleteWebhookEndpoint({ id: params.id });
    const { url, subscribedEvents, description } = webhookEndpointFacts(deleted);
    audit.details = { before: { url, subscribedEvents, description }, after: null };
    return deleted;
  }),
});
