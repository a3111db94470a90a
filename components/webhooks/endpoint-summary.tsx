"use client";

import type { WebhookEndpoint } from "@/components/webhooks/use-webhooks";
import styles from "./webhooks.module.css";

export function EndpointStatus({ endpoint }: { endpoint: Pick<WebhookEndpoint, "enabled"> }) {
  return <span className={`badge ${endpoint.enabled ? "ok" : ""}`}>{endpoint.enabled ? "enabled" : "disabled"}</span>;
}

/** The event types an endpoint subscribed to, as small tags. */
export function EndpointEvents({ events }: { events: readonly string[] }) {
  if (events.length === 0) return <span className="muted">None</span>;
  return (
    <ul
      className={styles.endpointEvents}
      aria-label={`${events.length} event ${events.length === 1 ? "type" : "types"}`}
    >
      {events.map((event) => (
        <li key={event} className="mono">
          {event}
        </li>
      ))}
    </ul>
  );
}
