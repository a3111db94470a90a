import { methods, route } from "@/lib/http/route";
import { retryWebhookDeliveryEndpoint } from "@/lib/webhooks/endpoints";
import { retryWebhookDelivery } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// POST: queue the delivery for an attempt now.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(retryWebhookDeliveryEndpoint, async ({ actor, params, audit }) => {
    const delivery = await retryWebhookDelivery({ id: params.id, eventId: params.eventId, actor });
    // The delivery, never its event data.
    audit.details = {
      eventId: delivery.id,
      eventType: delivery.eventType,
      webhookEndpointId: delivery.webhookEndpointId,
      after: { status: delivery.status, nextAttemptAt: delivery.nextAttemptAt },
    };
    return delivery;
  }),
});
