import { methods, route } from "@/lib/http/route";
import { listWebhookEventTypesEndpoint } from "@/lib/webhooks/endpoints";
import { listEventTypes } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: the event types an endpoint can subscribe to.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listWebhookEventTypesEndpoint, async () => listEventTypes()),
});
