"use client";

import { Controller } from "react-hook-form";
import { useMe } from "@/components/me";
import { CodeConfirmDialog, DialogFor, StepUpForm } from "@/components/step-up-form";
import { Dialog, DoneActions, useDialogResult } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { EventPicker } from "@/components/webhooks/event-picker";
import {
  createBody,
  createEndpointResolver,
  endpointFormFields,
  formPath,
  lockedEventTypes,
  offeredEventTypes,
  updateBody,
  updateEndpointResolver,
  type EndpointFormValues,
} from "@/components/webhooks/endpoint-form";
import { PublicKey } from "@/components/webhooks/public-key";
import { labelOf, webhookEndpointsQueryKey, type WebhookEndpoint } from "@/components/webhooks/use-webhooks";
import { Notice } from "@/components/ui/use-page-dialogs";
import { api } from "@/lib/client/api";
import {
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
} from "@/lib/webhooks/endpoints";
import styles from "./webhooks.module.css";

/** The form's state and submission: an update of `endpoint` when there is one, a create otherwise. */
function useEndpointForm(endpoint: WebhookEndpoint | undefined, onDone: (endpoint: WebhookEndpoint) => void) {
  const me = useMe();
  const offered = offeredEventTypes(me);
  const locked = endpoint ? lockedEventTypes(me, endpoint.subscribedEvents) : [];
  const apiForm = useApiForm<EndpointFormValues, WebhookEndpoint>({
    resolver: endpoint ? updateEndpointResolver : createEndpointResolver,
    defaultValues: endpoint
      ? { url: endpoint.url, description: endpoint.description ?? "", events: [...endpoint.subscribedEvents], code: "" }
      : { url: "", description: "", events: [], code: "" },
    submit: (values) =>
      endpoint
        ? api(updateWebhookEndpointEndpoint, {
            params: { id: endpoint.id },
            body: updateBody(values, { locked: locked.length > 0 }),
            totpCode: values.code.trim(),
          })
        : api(createWebhookEndpointEndpoint, { body: createBody(values), totpCode: values.code.trim() }),
    invalidates: [webhookEndpointsQueryKey],
    onDone,
    fields: endpointFormFields,
    formPath,
  });
  return { apiForm, offered, locked };
}

/** Why the events of an endpoint that hears types the employee may not read are not theirs to change. */
function LockedEvents({ locked }: { locked: ReturnType<typeof lockedEventTypes> }) {
  return (
    <div className="stack" data-testid="endpoint-locked">
      <p style={{ margin: 0 }}>
        This endpoint also hears events your role may not read, so its URL and events stay as they are. You can change
        its description.
      </p>
      <ul className={styles.endpointEvents} aria-label="Events you may not read">
        {locked.map(({ type, permission }) => (
          <li key={type} className="mono">
            {type} (needs {permission})
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The create form, or with an endpoint its edit form: URL, description and events, checked by the
 * API's own input schema, then an authenticator code; refusals go under the fields the API names.
 * It offers only the event types the employee's role may read; an endpoint that hears others keeps
 * its URL and events (the API would refuse a change), and only its description is editable.
 */
function EndpointForm({
  endpoint,
  onCancel,
  onDone,
}: {
  endpoint?: WebhookEndpoint;
  onCancel: () => void;
  onDone: (endpoint: WebhookEndpoint) => void;
}) {
  const { apiForm, offered, locked } = useEndpointForm(endpoint, onDone);
  const { form } = apiForm;
  const { errors } = form.formState;
  return (
    <StepUpForm
      apiForm={apiForm}
      onCancel={onCancel}
      confirmLabel={endpoint ? "Save changes" : "Add endpoint"}
      pendingLabel={endpoint ? "Saving…" : "Adding…"}
    >
      <Field
        label="URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks"
        autoComplete="off"
        hint={
          locked.length > 0
            ? "Stays as it is: this endpoint hears events your role may not read."
            : "Where the events are POSTed. HTTPS only; redirects are not followed."
        }
        error={errors.url}
        readOnly={locked.length > 0}
        className={locked.length > 0 ? styles.readOnly : undefined}
        {...form.register("url")}
      />
      <Field
        label="Description"
        placeholder="Payouts service"
        autoComplete="off"
        hint="Optional. Helps you recognise the endpoint later."
        error={errors.description}
        {...form.register("description")}
      />
      {locked.length > 0 ? (
        <LockedEvents locked={locked} />
      ) : (
        <Controller
          control={form.control}
          name="events"
          render={({ field, fieldState }) => (
            <EventPicker value={field.value} offered={offered} onChange={field.onChange} error={fieldState.error} />
          )}
        />
      )}
    </StepUpForm>
  );
}

/** Creates an endpoint (URL, description, events, an authenticator code); then shows its public key to copy. */
export function CreateEndpointDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated, close] = useDialogResult<WebhookEndpoint>(onClose);
  return (
    <Dialog open={open} onClose={close} title={created ? "Endpoint added" : "Add webhook endpoint"}>
      {created ? (
        <div className="stack">
          <Notice>
            <strong>{labelOf(created)}</strong> will receive{" "}
            {created.subscribedEvents.length === 1 ? "1 event type" : `${created.subscribedEvents.length} event types`}.
          </Notice>
          <p style={{ margin: 0 }}>
            Every delivery is signed with this endpoint&apos;s own Ed25519 key. Give your receiver this public key to
            verify the <code>X-Webhook-Signature</code> and <code>webhook-signature</code> headers. It stays on the
            endpoint&apos;s page.
          </p>
          <PublicKey pem={created.publicKey} />
          <DoneActions onDone={close} />
        </div>
      ) : (
        <EndpointForm onCancel={close} onDone={setCreated} />
      )}
    </Dialog>
  );
}

/** Changes an endpoint's URL, description and events; needs an authenticator code. */
export function EditEndpointDialog({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSaved: (endpoint: WebhookEndpoint) => void;
}) {
  return (
    <DialogFor subject={endpoint} onClose={onClose} title="Edit webhook endpoint">
      {(current) => <EndpointForm endpoint={current} onCancel={onClose} onDone={onSaved} />}
    </DialogFor>
  );
}

/** Turns deliveries to an endpoint off or back on (POST {enabled}); needs an authenticator code. */
export function ToggleEndpointDialog({
  endpoint,
  onClose,
  onDone,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onDone: (endpoint: WebhookEndpoint) => void;
}) {
  const enable = endpoint ? !endpoint.enabled : false;
  return (
    <CodeConfirmDialog
      subject={endpoint}
      title={enable ? "Enable webhook endpoint" : "Disable webhook endpoint"}
      confirmLabel={enable ? "Enable endpoint" : "Disable endpoint"}
      pendingLabel={enable ? "Enabling…" : "Disabling…"}
      danger={!enable}
      onConfirm={(endpoint, code) =>
        api(updateWebhookEndpointEndpoint, { params: { id: endpoint.id }, body: { enabled: enable }, totpCode: code })
      }
      invalidates={[webhookEndpointsQueryKey]}
      onClose={onClose}
      onDone={onDone}
    >
      {(endpoint) =>
        enable ? (
          <>
            Enable <strong>{labelOf(endpoint)}</strong>? New events are delivered to it again.
          </>
        ) : (
          <>
            Disable <strong>{labelOf(endpoint)}</strong>? No new events are sent to it until you enable it again.
          </>
        )
      }
    </CodeConfirmDialog>
  );
}

/** Deletes an endpoint (DELETE); nothing more is delivered to it. Needs an authenticator code. */
export function DeleteEndpointDialog({
  endpoint,
  onClose,
  onDeleted,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onDeleted: (endpoint: WebhookEndpoint) => void;
}) {
  return (
    <CodeConfirmDialog
      subject={endpoint}
      title="Delete webhook endpoint"
      confirmLabel="Delete endpoint"
      pendingLabel="Deleting…"
      danger
      onConfirm={(endpoint, code) =>
        api(deleteWebhookEndpointEndpoint, { params: { id: endpoint.id }, totpCode: code })
      }
      invalidates={[webhookEndpointsQueryKey]}
      onClose={onClose}
      onDone={onDeleted}
    >
      {(endpoint) => (
        <>
          Delete <strong>{labelOf(endpoint)}</strong> (<code>{endpoint.url}</code>)? Nothing more is delivered to it,
          deliveries still waiting are dropped, and this cannot be undone.
        </>
      )}
    </CodeConfirmDialog>
  );
}
