import { methods, route } from "@/lib/http/route";
import { createWebhookEndpointEndpoint, listWebhookEndpointsEndpoint } from "@/lib/webhooks/endpoints";
import {
  assertMaySubscribe,
  createWebhookEndpoint,
  listWebhookEndpoints,
  webhookEndpointFacts,
} from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: the account's webhook endpoints. POST: create one, with its own Ed25519 key pair, recording who created it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listWebhookEndpointsEndpoint, async () => listWebhookEndpoints()),
  POST: route(createWebhookEndpointEndpoint, async ({ actor, body, audit }) => {
    assertMaySubscribe(actor, body.events);
    const created = await createWebhookEndpoint({ ...body, createdBy: { type: actor.type, id: actor.id } });
    audit.details = { after: webhookEndpointFacts(created) };
    return created;
  }),
});
