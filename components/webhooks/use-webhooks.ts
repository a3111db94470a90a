"use client";

import { useApiQuery } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";
import {
  getWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhookEndpointsEndpoint,
} from "@/lib/webhooks/endpoints";

export type WebhookEndpoint = ResponseOf<typeof getWebhookEndpointEndpoint>;
export type WebhookDelivery = ResponseOf<typeof listWebhookDeliveriesEndpoint>["items"][number];

/** Refreshes the endpoint list and every endpoint's page (its delivery log included). */
export const webhookEndpointsQueryKey = queryKey(listWebhookEndpointsEndpoint);

/** The platform's endpoints (GET /v1/webhook_endpoints answers a plain array). */
export function useWebhookEndpoints() {
  return useApiQuery(listWebhookEndpointsEndpoint);
}

export function useWebhookEndpoint(id: string) {
  return useApiQuery(getWebhookEndpointEndpoint, { params: { id } });
}

/** How people recognise an endpoint: its description, else its URL's host and path. */
export function labelOf(endpoint: Pick<WebhookEndpoint, "description" | "url">): string {
  if (endpoint.description) return endpoint.description;
  try {
    const url = new URL(endpoint.url);
    return `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return endpoint.url;
  }
}
