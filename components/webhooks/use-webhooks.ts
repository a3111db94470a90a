"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type { webhookDeliverySchema, webhookEndpointSchema } from "@/lib/webhooks/schemas";

// Types only: lib/webhooks/schemas.ts also holds the server's URL guard (DNS, env), which stays out of the browser.
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;

export const webhookEndpointsQueryKey = ["webhook-endpoints"] as const;
export const webhookEndpointQueryKey = (id: string) => [...webhookEndpointsQueryKey, id] as const;
/** The delivery log's path, which useCursorList uses as the first part of its query key. */
export const deliveriesPath = (endpointId: string) => `/v1/webhook_endpoints/${encodeURIComponent(endpointId)}/events`;

/** The platform's endpoints (GET /v1/webhook_endpoints answers a plain array). */
export function useWebhookEndpoints() {
  return useQuery({ queryKey: webhookEndpointsQueryKey, queryFn: () => api<WebhookEndpoint[]>("/v1/webhook_endpoints") });
}

export function useWebhookEndpoint(id: string) {
  return useQuery({ queryKey: webhookEndpointQueryKey(id), queryFn: () => api<WebhookEndpoint>(`/v1/webhook_endpoints/${encodeURIComponent(id)}`) });
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
