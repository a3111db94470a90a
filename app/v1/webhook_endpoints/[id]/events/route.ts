import { methods, route } from "@/lib/http/route";
import { listWebhookDeliveriesEndpoint } from "@/lib/webhooks/endpoints";
import { listWebhookDeliveries } from "@/lib/webhooks/webhook-endpoints";

export const dynamic = "force-dynamic";

// GET: a page of the endpoint's deliveries, optionally failed ones only and within dates.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listWebhookDeliveriesEndpoint, async ({ actor, params, query }) =>
    listWebhookDeliveries({ id: params.id, viewer: actor, ...query }),
  ),
});
