"use client";

import Link from "@/components/ui/link";
import { DataTable } from "@/components/ui/data-table";
import { useCan } from "@/components/me";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { DataState } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import {
  CreateEndpointDialog,
  DeleteEndpointDialog,
  EditEndpointDialog,
  ToggleEndpointDialog,
} from "@/components/webhooks/endpoint-dialogs";
import { EndpointEvents, EndpointStatus } from "@/components/webhooks/endpoint-summary";
import { labelOf, useWebhookEndpoints, type WebhookEndpoint } from "@/components/webhooks/use-webhooks";
import styles from "@/components/webhooks/webhooks.module.css";

type Open = { dialog: "create" } | { dialog: "edit" | "toggle" | "delete"; endpoint: WebhookEndpoint };

/** The platform's webhook endpoints, with adding, editing, enabling/disabling and deleting (each needs an authenticator code). */
export function WebhooksList() {
  const can = useCan();
  const mayWrite = can("webhooks:write");
  const endpoints = useWebhookEndpoints();
  const { open, notice, show, close, done } = usePageDialogs<Open>();

  return (
    <div className="stack">
      <PageHeader
        title="Webhooks"
        description="Endpoints of your systems that hear about changes the moment they happen: signed with each endpoint's own key, retried until they answer."
        actions={
          mayWrite && (
            <button type="button" className="primary" onClick={() => show({ dialog: "create" })}>
              Add endpoint
            </button>
          )
        }
      />
      {!mayWrite && (
        <ReadOnlyNote>Your role can see webhook endpoints and their deliveries but not change them.</ReadOnlyNote>
      )}
      <Notice>{notice}</Notice>
      <DataState
        query={endpoints}
        isEmpty={endpoints.data?.length === 0}
        empty={
          mayWrite ? (
            <>
              No webhook endpoints yet.{" "}
              <button type="button" className="link" onClick={() => show({ dialog: "create" })}>
                Add one
              </button>{" "}
              to hear about changes as they happen.
            </>
          ) : (
            "No webhook endpoints yet. Someone allowed to change webhooks adds them."
          )
        }
      >
        <DataTable label="Webhook endpoints" columns={["Endpoint", "Status", "Events", "Created", "Actions"]}>
          {endpoints.data?.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} mayWrite={mayWrite} onShow={show} />
          ))}
        </DataTable>
      </DataState>

      {mayWrite && <EndpointDialogs open={open} onClose={close} onDone={done} />}
    </div>
  );
}

/** The dialogs that change endpoints; each closes with a sentence for the page to show. */
function EndpointDialogs({
  open,
  onClose,
  onDone,
}: {
  open: Open | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  return (
    <>
      <CreateEndpointDialog open={open?.dialog === "create"} onClose={onClose} />
      <EditEndpointDialog
        endpoint={open?.dialog === "edit" ? open.endpoint : null}
        onClose={onClose}
        onSaved={(endpoint) => onDone(`${labelOf(endpoint)} is saved.`)}
      />
      <ToggleEndpointDialog
        endpoint={open?.dialog === "toggle" ? open.endpoint : null}
        onClose={onClose}
        onDone={(endpoint) => onDone(`${labelOf(endpoint)} is ${endpoint.enabled ? "enabled" : "disabled"}.`)}
      />
      <DeleteEndpointDialog
        endpoint={open?.dialog === "delete" ? open.endpoint : null}
        onClose={onClose}
        onDeleted={(endpoint) => onDone(`${labelOf(endpoint)} is deleted.`)}
      />
    </>
  );
}

/** One endpoint in the table: where it points, its state and events, and its actions. */
function EndpointRow({
  endpoint,
  mayWrite,
  onShow,
}: {
  endpoint: WebhookEndpoint;
  mayWrite: boolean;
  onShow: (open: Open) => void;
}) {
  const label = labelOf(endpoint);
  return (
    <tr>
      <td data-label="Endpoint">
        <div>
          <Link href={`/webhooks/${endpoint.id}`}>{label}</Link>
        </div>
        <code className={`${styles.endpointUrl} muted`}>{endpoint.url}</code>
      </td>
      <td data-label="Status">
        <EndpointStatus endpoint={endpoint} />
      </td>
      <td data-label="Events">
        <EndpointEvents events={endpoint.subscribedEvents} />
      </td>
      <td data-label="Created">
        <DateTime value={endpoint.createdAt} />
      </td>
      <td data-label="Actions">
        <div className={styles.actions}>
          <Link href={`/webhooks/${endpoint.id}`} className="button" aria-label={`Deliveries of ${label}`}>
            Deliveries
          </Link>
          {mayWrite && (
            <>
              <button type="button" aria-label={`Edit ${label}`} onClick={() => onShow({ dialog: "edit", endpoint })}>
                Edit
              </button>
              <button
                type="button"
                aria-label={`${endpoint.enabled ? "Disable" : "Enable"} ${label}`}
                onClick={() => onShow({ dialog: "toggle", endpoint })}
              >
                {endpoint.enabled ? "Disable" : "Enable"}
              </button>
              <button
                type="button"
                aria-label={`Delete ${label}`}
                onClick={() => onShow({ dialog: "delete", endpoint })}
              >
                Delete
              </button>
            </>
          )}
        </div>
      </td>
    </tr>
  );
}
