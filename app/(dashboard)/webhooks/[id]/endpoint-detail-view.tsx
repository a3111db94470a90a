"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useAccountRouter } from "@/components/account-scope";
import { useCan } from "@/components/me";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { LoadMore } from "@/components/ui/cursor-list";
import { DataState, ErrorMessage } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DeleteEndpointDialog, EditEndpointDialog, ToggleEndpointDialog } from "@/components/webhooks/endpoint-dialogs";
import { EndpointEvents, EndpointStatus } from "@/components/webhooks/endpoint-summary";
import { DeliveryFiltersForm, deliveryFilterNames, deliveryFiltersOf } from "@/components/webhooks/delivery-filters";
import { DeliveryItem, useRefreshWhilePending } from "@/components/webhooks/delivery-log";
import { PublicKey } from "@/components/webhooks/public-key";
import {
  labelOf,
  useWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "@/components/webhooks/use-webhooks";
import styles from "@/components/webhooks/webhooks.module.css";
import { api, ApiRequestError, queryString } from "@/lib/client/api";
import { useCursorList, useInvalidate } from "@/lib/client/queries";
import { listWebhookDeliveriesEndpoint, sendTestWebhookEndpoint } from "@/lib/webhooks/endpoints";

type Open = { dialog: "edit" | "toggle" | "delete"; endpoint: WebhookEndpoint };

/** One endpoint: its settings and public key, its controls, and its delivery log (filters kept in the URL). */
export function EndpointDetailView({ id }: { id: string }) {
  const router = useAccountRouter();
  const can = useCan();
  const mayWrite = can("webhooks:write");
  const endpoint = useWebhookEndpoint(id);
  const { open, notice, show, close, done } = usePageDialogs<Open>();
  const data = endpoint.data;

  return (
    <div className="stack">
      <PageHeader
        title={data ? labelOf(data) : "Webhook endpoint"}
        description={<code>{id}</code>}
        actions={
          <>
            <Link href="/webhooks">All webhook endpoints</Link>
            {mayWrite && data && (
              <SendTestEvent endpoint={data} onSent={(delivery) => done(`Test event ${delivery.id} is on its way.`)} />
            )}
          </>
        }
      />
      <Notice>{notice}</Notice>
      <DataState query={endpoint}>
        {data && <EndpointCard endpoint={data} mayWrite={mayWrite} onShow={show} />}
      </DataState>
      {data && <DeliveryLog endpointId={id} mayWrite={mayWrite} endpointEnabled={data.enabled} />}

      {mayWrite && (
        <>
          <EditEndpointDialog
            endpoint={open?.dialog === "edit" ? open.endpoint : null}
            onClose={close}
            onSaved={(saved) => done(`${labelOf(saved)} is saved.`)}
          />
          <ToggleEndpointDialog
            endpoint={open?.dialog === "toggle" ? open.endpoint : null}
            onClose={close}
            onDone={(saved) => done(`${labelOf(saved)} is ${saved.enabled ? "enabled" : "disabled"}.`)}
          />
          <DeleteEndpointDialog
            endpoint={open?.dialog === "delete" ? open.endpoint : null}
            onClose={close}
            onDeleted={() => {
              close();
              router.push("/webhooks");
            }}
          />
        </>
      )}
    </div>
  );
}

/** The endpoint's settings and public key, with Edit, Enable/Disable and Delete for writers. */
function EndpointCard({
  endpoint,
  mayWrite,
  onShow,
}: {
  endpoint: WebhookEndpoint;
  mayWrite: boolean;
  onShow: (open: Open) => void;
}) {
  return (
    <section className="card stack" aria-labelledby="endpoint-heading">
      <div className="page-header" style={{ margin: 0 }}>
        <h2 id="endpoint-heading" style={{ margin: 0 }}>
          Endpoint
        </h2>
        {mayWrite && (
          <div className={styles.actions}>
            <button type="button" onClick={() => onShow({ dialog: "edit", endpoint })}>
              Edit
            </button>
            <button type="button" onClick={() => onShow({ dialog: "toggle", endpoint })}>
              {endpoint.enabled ? "Disable" : "Enable"}
            </button>
            <button type="button" onClick={() => onShow({ dialog: "delete", endpoint })}>
              Delete
            </button>
          </div>
        )}
      </div>
      <dl className="props">
        <dt>URL</dt>
        <dd className={styles.endpointUrl}>
          <code>{endpoint.url}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
        </dd>
        <dt>Events</dt>
        <dd>
          <EndpointEvents events={endpoint.subscribedEvents} />
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={endpoint.createdAt} />
        </dd>
      </dl>
      <div className="stack" style={{ gap: "0.4rem" }}>
        <strong>Public key</strong>
        <span className="muted">
          Verify each delivery&apos;s <code>X-Webhook-Signature</code> and <code>webhook-signature</code> with this
          Ed25519 key.
        </span>
        <PublicKey pem={endpoint.publicKey} />
      </div>
    </section>
  );
}

/** "Send test event": a webhook.test delivery to this endpoint only, now; the log shows it at once. */
function SendTestEvent({
  endpoint,
  onSent,
}: {
  endpoint: WebhookEndpoint;
  onSent: (delivery: WebhookDelivery) => void;
}) {
  const invalidate = useInvalidate();
  const send = useMutation({
    mutationFn: () => api(sendTestWebhookEndpoint, { params: { id: endpoint.id } }),
    onSuccess: async (delivery) => {
      onSent(delivery);
      await invalidate(listWebhookDeliveriesEndpoint, { id: endpoint.id });
    },
  });
  return (
    <span className="stack" style={{ gap: "0.3rem", justifyItems: "end" }}>
      <button
        type="button"
        className="primary"
        onClick={() => send.mutate()}
        // The API refuses (409) to send to a disabled endpoint.
        disabled={send.isPending || !endpoint.enabled}
        title={endpoint.enabled ? undefined : "Enable the endpoint to send it events"}
      >
        {send.isPending ? "Sending…" : "Send test event"}
      </button>
      <ErrorMessage error={send.error} />
    </span>
  );
}

function DeliveryLog({
  endpointId,
  mayWrite,
  endpointEnabled,
}: {
  endpointId: string;
  mayWrite: boolean;
  endpointEnabled: boolean;
}) {
  const router = useAccountRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = deliveryFiltersOf(searchParams);
  const { query, items, state } = useCursorList(listWebhookDeliveriesEndpoint, {
    params: { id: endpointId },
    query: filters,
  });
  useRefreshWhilePending(items, query.refetch);
  const serverErrors = state.error instanceof ApiRequestError && state.error.status === 422 ? state.error.details : {};
  const filtered = deliveryFilterNames.some((name) => filters[name]);
  return (
    <section className="stack" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading" style={{ margin: 0 }}>
        Deliveries
      </h2>
      <DeliveryFiltersForm
        // Remounts when the URL changes (back/forward, a link), so the form shows the filters in effect.
        key={searchParams.toString()}
        current={filters}
        serverErrors={serverErrors}
        onApply={(next) => router.replace(`${pathname}${queryString(next)}`)}
      />
      <DataState
        query={state}
        isEmpty={items.length === 0}
        empty={
          filtered
            ? "No deliveries match these filters."
            : "No deliveries yet. One arrives here each time an event this endpoint listens to happens."
        }
      >
        <ul className={styles.deliveries} aria-label="Deliveries, newest first">
          {items.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} mayWrite={mayWrite} endpointEnabled={endpointEnabled} />
          ))}
        </ul>
        <LoadMore query={query} />
      </DataState>
    </section>
  );
}
