import { methods, route } from "@/lib/http/route";
import { sendTestWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { sendTestEvent } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// POST: a webhook.test delivery for this endpoint, due now.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sendTestWebhookEndpoint, async ({ actor, params, audit }) => {
    const delivery = await sendTestEvent({ id: params.id, viewer: actor });
    audit.details = {
      eventId: delivery.id,
      eventType: delivery.eventType,
      webhookEndpointId: delivery.webhookEndpointId,
    };
    return delivery;
  }),
});
