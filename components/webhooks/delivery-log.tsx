"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import type { WebhookDelivery } from "@/components/webhooks/use-webhooks";
import { missingReadPermission, type ReadPermission } from "@/lib/auth/permissions";
import { api } from "@/lib/client/api";
import { useInvalidate } from "@/lib/client/queries";
import { listWebhookDeliveriesEndpoint, retryWebhookDeliveryEndpoint } from "@/lib/webhooks/endpoints";
import styles from "./webhooks.module.css";

/** How often the log asks again while a delivery is still under way: the worker changes it in the background. */
const REFRESH_MS = 3_000;

/** Refetches the log every few seconds while any delivery shown is pending, so its outcome appears without a reload. */
export function useRefreshWhilePending(items: readonly WebhookDelivery[], refetch: () => unknown) {
  const anyPending = items.some((delivery) => delivery.status === "pending");
  useEffect(() => {
    if (!anyPending) return;
    const timer = setInterval(() => refetch(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [anyPending, refetch]);
}

const statusTone: Record<WebhookDelivery["status"], string> = { delivered: "ok", pending: "warn", failed: "danger" };

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

/** Pretty JSON of a payload; a body that is not JSON stays as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A delivery's state in words: what happened last and what happens next. */
function Outcome({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.status === "delivered") return null;
  if (delivery.status === "failed") return <span className="muted">gave up retrying</span>;
  if (delivery.attempts === 0) return <span className="muted">not sent yet</span>;
  return (
    <span className="muted">
      last attempt failed
      {delivery.nextAttemptAt && (
        <>
          {" "}
          · next try <DateTime value={delivery.nextAttemptAt} />
        </>
      )}
    </span>
  );
}

/** Retry of one delivery; a success refreshes the endpoint's log. */
function useRetryDelivery(delivery: WebhookDelivery) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () =>
      api(retryWebhookDeliveryEndpoint, { params: { id: delivery.webhookEndpointId, eventId: delivery.id } }),
    onSuccess: () => invalidate(listWebhookDeliveriesEndpoint, { id: delivery.webhookEndpointId }),
  });
}

/** The badge for the last response: its HTTP status, "no answer" when an attempt got none, a dash before any. */
function ResponseBadge({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.responseStatusCode !== null) {
    return (
      <span className={`badge ${isSuccess(delivery.responseStatusCode) ? "ok" : "danger"}`}>
        HTTP {delivery.responseStatusCode}
      </span>
    );
  }
  return delivery.lastError ? <span className="badge danger">no answer</span> : <span className="muted">—</span>;
}

function DeliveryFacts({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <dl className={styles.deliveryFacts}>
      <div>
        <dt>Occurred</dt>
        <dd>
          <DateTime value={delivery.occurredAt} />
        </dd>
      </div>
      <div>
        <dt>Attempts</dt>
        <dd data-testid="delivery-attempts">{delivery.attempts}</dd>
      </div>
      <div>
        <dt>Last attempt</dt>
        <dd>
          <DateTime value={delivery.lastAttemptAt} fallback="Not yet" />
        </dd>
      </div>
      <div>
        <dt>Response</dt>
        <dd data-testid="delivery-response-status">
          <ResponseBadge delivery={delivery} /> <Outcome delivery={delivery} />
        </dd>
      </div>
    </dl>
  );
}

function PayloadSection({ delivery, hiddenBy }: { delivery: WebhookDelivery; hiddenBy: ReadPermission | null }) {
  return (
    <section>
      <h3>Payload (data)</h3>
      {hiddenBy || delivery.eventData === null ? (
        <p className="muted" style={{ margin: 0 }} data-testid="delivery-payload-hidden">
          hidden: needs {hiddenBy ?? "a read permission your role lacks"}
        </p>
      ) : (
        <pre className={styles.code} data-testid="delivery-payload">
          {JSON.stringify(delivery.eventData, null, 2)}
        </pre>
      )}
    </section>
  );
}

function LastResponseSection({ delivery }: { delivery: WebhookDelivery }) {
  const responded = delivery.responseStatusCode !== null;
  // "HTTP 500" only repeats the status shown below it; a redirect not followed or a timeout says more.
  const error = delivery.lastError === `HTTP ${delivery.responseStatusCode}` ? null : delivery.lastError;
  return (
    <section>
      <h3>Last response</h3>
      {error && (
        <p className={styles.lastError} data-testid="delivery-error">
          {error}
        </p>
      )}
      {responded ? (
        <>
          <p style={{ margin: "0 0 0.4rem" }}>
            Status <strong className="mono">{delivery.responseStatusCode}</strong>
            {delivery.responseBody ? ", body (first 1 KiB):" : ", empty body."}
          </p>
          {delivery.responseBody && (
            <pre className={styles.code} data-testid="delivery-response-body">
              {pretty(delivery.responseBody)}
            </pre>
          )}
        </>
      ) : (
        !error && (
          <p className="muted" style={{ margin: 0 }}>
            No attempt answered yet.
          </p>
        )
      )}
    </section>
  );
}

/**
 * One delivery: status, attempts and times up front; the payload and the last response on demand; Retry
 * for writers. A payload the employee's role may not read is not shown (the API sends it as null) and
 * not offered for retry (the API refuses): "hidden: needs <permission>" says why.
 */
export function DeliveryItem({
  delivery,
  mayWrite,
  endpointEnabled,
}: {
  delivery: WebhookDelivery;
  mayWrite: boolean;
  endpointEnabled: boolean;
}) {
  const me = useMe();
  const hiddenBy = missingReadPermission(me, delivery.eventType);
  const retry = useRetryDelivery(delivery);
  // Retry is for a delivery that was tried: one not yet sent is on its way already.
  const retryable = delivery.status !== "pending" || delivery.attempts > 0;
  return (
    <li
      className={styles.delivery}
      data-testid="webhook-delivery"
      data-status={delivery.status}
      aria-label={`${delivery.eventType} ${delivery.id}`}
    >
      <div className={styles.deliveryHead}>
        <div className={styles.deliveryTitle}>
          <span className={`badge ${statusTone[delivery.status]}`}>{delivery.status}</span>
          <strong className="mono">{delivery.eventType}</strong>
          <code className="muted">{delivery.id}</code>
        </div>
        {hiddenBy && (
          <span className="muted" data-testid="delivery-hidden">
            hidden: needs {hiddenBy}
          </span>
        )}
        {mayWrite && retryable && !hiddenBy && (
          <button
            type="button"
            onClick={() => retry.mutate()}
            // The API refuses (409) to send to a disabled endpoint: enable it first.
            disabled={retry.isPending || !endpointEnabled}
            title={endpointEnabled ? undefined : "Enable the endpoint to retry"}
            aria-label={`Retry ${delivery.id}`}
          >
            {retry.isPending ? "Queuing…" : "Retry"}
          </button>
        )}
      </div>
      <DeliveryFacts delivery={delivery} />
      <ErrorMessage error={retry.error} />
      <details className={styles.deliveryDetails}>
        <summary>Payload and last response</summary>
        <div className={styles.detailGrid}>
          <PayloadSection delivery={delivery} hiddenBy={hiddenBy} />
          <LastResponseSection delivery={delivery} />
        </div>
      </details>
    </li>
  );
}
