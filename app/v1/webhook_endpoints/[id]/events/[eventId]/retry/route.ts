import { methods, route } from "@/lib/http/route";
import { retryWebhookDeliveryEndpoint } from "@/lib/webhooks/endpoints";
import { retryWebhookDelivery } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// POST: queue the delivery for an attempt now.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(retryWebhookDeliveryEndpoint, async ({ actor, params }) => retryWebhookDelivery({ id: params.id, eventId: params.eventId, actor })),
});
