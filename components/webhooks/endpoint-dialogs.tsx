"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Controller, useForm, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { showApiError } from "@/components/api-keys/key-form";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { EventPicker } from "@/components/webhooks/event-picker";
import { createBody, createEndpointResolver, showEndpointError, updateBody, updateEndpointResolver, type EndpointFormValues } from "@/components/webhooks/endpoint-form";
import { PublicKey } from "@/components/webhooks/public-key";
import { labelOf, webhookEndpointsQueryKey, type WebhookEndpoint } from "@/components/webhooks/use-webhooks";
import { api } from "@/lib/client/api";
import { totpConfirmInput } from "@/lib/employees/schemas";

const endpointPath = (id: string) => `/v1/webhook_endpoints/${encodeURIComponent(id)}`;

/** After a change the list and the endpoint's own page both show it (one key prefix covers both). */
function useRefreshEndpoints() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookEndpointsQueryKey });
}

/** URL, description and events: the fields the create and edit dialogs share. */
function EndpointFields({ form }: { form: UseFormReturn<EndpointFormValues> }) {
  const { errors } = form.formState;
  return (
    <>
      <Field
        label="URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks"
        autoComplete="off"
        hint="Where the events are POSTed. HTTPS only; redirects are not followed."
        error={errors.url}
        {...form.register("url")}
      />
      <Field label="Description" placeholder="Payouts service" autoComplete="off" hint="Optional. Helps you recognise the endpoint later." error={errors.description} {...form.register("description")} />
      <Controller
        control={form.control}
        name="events"
        render={({ field, fieldState }) => <EventPicker value={field.value} onChange={field.onChange} error={fieldState.error} />}
      />
    </>
  );
}

/** Creates an endpoint (URL, description, events, an authenticator code); then shows its public key to copy. */
export function CreateEndpointDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<WebhookEndpoint | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={created ? "Endpoint added" : "Add webhook endpoint"}>
      {created ? (
        <div className="stack">
          <div className="alert success" role="status">
            <strong>{labelOf(created)}</strong> will receive {created.subscribedEvents.length === 1 ? "1 event type" : `${created.subscribedEvents.length} event types`}.
          </div>
          <p style={{ margin: 0 }}>
            Every delivery is signed with this endpoint&apos;s own Ed25519 key. Give your receiver this public key to verify the{" "}
            <code>X-Webhook-Signature</code> and <code>webhook-signature</code> headers. It stays on the endpoint&apos;s page.
          </p>
          <PublicKey pem={created.publicKey} />
          <div className="dialog-actions">
            <button type="button" className="primary" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <CreateEndpointForm onCreated={setCreated} onCancel={close} />
      )}
    </Dialog>
  );
}

function CreateEndpointForm({ onCreated, onCancel }: { onCreated: (endpoint: WebhookEndpoint) => void; onCancel: () => void }) {
  const me = useMe();
  const refresh = useRefreshEndpoints();
  const form = useForm<EndpointFormValues>({ resolver: createEndpointResolver, defaultValues: { url: "", description: "", events: [], code: "" } });
  const create = useMutation({
    mutationFn: (values: EndpointFormValues) => api<WebhookEndpoint>("/v1/webhook_endpoints", { method: "POST", body: createBody(values), totpCode: values.code.trim() }),
    onSuccess: refresh,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onCreated(await create.mutateAsync(values));
    } catch (error) {
      setFormError(showEndpointError(error, form.setError));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <EndpointFields form={form} />
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Adding…" : "Add endpoint"}
        </button>
      </div>
    </form>
  );
}

/** Changes an endpoint's URL, description and events; needs an authenticator code. */
export function EditEndpointDialog({ endpoint, onClose, onSaved }: { endpoint: WebhookEndpoint | null; onClose: () => void; onSaved: (endpoint: WebhookEndpoint) => void }) {
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title="Edit webhook endpoint">
      {endpoint && <EditEndpointForm endpoint={endpoint} onCancel={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function EditEndpointForm({ endpoint, onCancel, onSaved }: { endpoint: WebhookEndpoint; onCancel: () => void; onSaved: (endpoint: WebhookEndpoint) => void }) {
  const me = useMe();
  const refresh = useRefreshEndpoints();
  const form = useForm<EndpointFormValues>({
    resolver: updateEndpointResolver,
    defaultValues: { url: endpoint.url, description: endpoint.description ?? "", events: [...endpoint.subscribedEvents], code: "" },
  });
  const save = useMutation({
    mutationFn: (values: EndpointFormValues) => api<WebhookEndpoint>(endpointPath(endpoint.id), { method: "POST", body: updateBody(values), totpCode: values.code.trim() }),
    onSuccess: refresh,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onSaved(await save.mutateAsync(values));
    } catch (error) {
      setFormError(showEndpointError(error, form.setError));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <EndpointFields form={form} />
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Saving…" : "Save changes"}
        </button>
      </div>
    </form>
  );
}

type CodeOnlyAction = {
  confirmLabel: string;
  pendingLabel: string;
  danger?: boolean;
  run: (code: string) => Promise<WebhookEndpoint>;
};

/** A one-step change of an endpoint (enable, disable, delete): what it does, an authenticator code, a button. */
function CodeConfirmForm({ action, children, onCancel, onDone }: { action: CodeOnlyAction; children: ReactNode; onCancel: () => void; onDone: (endpoint: WebhookEndpoint) => void }) {
  const me = useMe();
  const refresh = useRefreshEndpoints();
  const form = useForm<z.input<typeof totpConfirmInput>>({ resolver: zodResolver(totpConfirmInput), defaultValues: { code: "" } });
  const mutation = useMutation({ mutationFn: action.run, onSuccess: refresh });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onDone(await mutation.mutateAsync(code.trim()));
    } catch (error) {
      setFormError(showApiError(error, form.setError, ["code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p style={{ margin: 0 }}>{children}</p>
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={action.danger ? "danger" : "primary"} disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? action.pendingLabel : action.confirmLabel}
        </button>
      </div>
    </form>
  );
}

/** Turns deliveries to an endpoint off or back on (POST {enabled}); needs an authenticator code. */
export function ToggleEndpointDialog({ endpoint, onClose, onDone }: { endpoint: WebhookEndpoint | null; onClose: () => void; onDone: (endpoint: WebhookEndpoint) => void }) {
  const enable = endpoint ? !endpoint.enabled : false;
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title={enable ? "Enable webhook endpoint" : "Disable webhook endpoint"}>
      {endpoint && (
        <CodeConfirmForm
          action={{
            confirmLabel: enable ? "Enable endpoint" : "Disable endpoint",
            pendingLabel: enable ? "Enabling…" : "Disabling…",
            danger: !enable,
            run: (code) => api<WebhookEndpoint>(endpointPath(endpoint.id), { method: "POST", body: { enabled: enable }, totpCode: code }),
          }}
          onCancel={onClose}
          onDone={onDone}
        >
          {enable ? (
            <>
              Enable <strong>{labelOf(endpoint)}</strong>? New events are delivered to it again.
            </>
          ) : (
            <>
              Disable <strong>{labelOf(endpoint)}</strong>? No new events are sent to it until you enable it again.
            </>
          )}
        </CodeConfirmForm>
      )}
    </Dialog>
  );
}

/** Deletes an endpoint (DELETE); nothing more is delivered to it. Needs an authenticator code. */
export function DeleteEndpointDialog({ endpoint, onClose, onDeleted }: { endpoint: WebhookEndpoint | null; onClose: () => void; onDeleted: (endpoint: WebhookEndpoint) => void }) {
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title="Delete webhook endpoint">
      {endpoint && (
        <CodeConfirmForm
          action={{
            confirmLabel: "Delete endpoint",
            pendingLabel: "Deleting…",
            danger: true,
            run: (code) => api<WebhookEndpoint>(endpointPath(endpoint.id), { method: "DELETE", totpCode: code }),
          }}
          onCancel={onClose}
          onDone={onDeleted}
        >
          Delete <strong>{labelOf(endpoint)}</strong> (<code>{endpoint.url}</code>)? Nothing more is delivered to it, deliveries still waiting are
          dropped, and this cannot be undone.
        </CodeConfirmForm>
      )}
    </Dialog>
  );
}
