"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { z } from "zod";
import { apiKeysQueryKey } from "@/components/api-keys/use-api-keys";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { useCan } from "@/components/me";
import { StepUpForm } from "@/components/step-up-form";
import { DataState } from "@/components/ui/data-state";
import { useApiForm } from "@/components/use-api-form";
import { webhookEndpointsQueryKey } from "@/components/webhooks/use-webhooks";
import { api } from "@/lib/client/api";
import { useApiQuery } from "@/lib/client/queries";
import { deactivateEmployeeEndpoint, employeeCredentialsEndpoint } from "@/lib/employees/endpoints";
import { totpConfirmInput } from "@/lib/employees/schemas";
import type { ResponseOf } from "@/lib/contract/endpoint";
import styles from "./deactivate-employee-form.module.css";

const deactivateForm = totpConfirmInput.extend({ revokeCredentials: z.boolean() });
type Values = z.input<typeof deactivateForm>;
export type Deactivated = ResponseOf<typeof deactivateEmployeeEndpoint>;
type Credentials = ResponseOf<typeof employeeCredentialsEndpoint>;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the page's notice says once they are deactivated, with what was revoked alongside. */
export function deactivatedNotice(
  employee: { name: string },
  { createdCredentials: { apiKeys, webhookEndpoints } }: Pick<Deactivated, "createdCredentials">,
  revoked: boolean,
) {
  const base = `${employee.name} is deactivated: their sessions have ended and they can no longer sign in.`;
  if (apiKeys.length + webhookEndpoints.length === 0) return base;
  const what = `${count(apiKeys.length, "API key", "API keys")} and ${count(webhookEndpoints.length, "webhook endpoint", "webhook endpoints")}`;
  return revoked ? `${base} Revoked ${what} they created.` : `${base} ${what} they created still work.`;
}

/**
 * Deactivates an employee (DELETE /v1/employees/{id}) with an authenticator code, after listing the
 * keys and webhook endpoints they created that still work (GET /v1/employees/{id}/credentials), with
 * "also revoke" ticked: offboarding that leaves their credentials working is how a leaver keeps access.
 */
export function DeactivateEmployeeForm({
  employee,
  onCancel,
  onDone,
}: {
  employee: Employee;
  onCancel: () => void;
  onDone: (notice: string) => void;
}) {
  const can = useCan();
  const mayList = can("employees:read") && can("api_keys:read") && can("webhooks:read");
  const mayRevoke = can("api_keys:write") && can("webhooks:write");
  const credentials = useApiQuery(employeeCredentialsEndpoint, { params: { id: employee.id }, enabled: mayList });
  const found = credentials.data ? credentials.data.apiKeys.length + credentials.data.webhookEndpoints.length : 0;
  const apiForm = useApiForm<Values, Deactivated, z.output<typeof deactivateForm>>({
    resolver: zodResolver(deactivateForm),
    defaultValues: { code: "", revokeCredentials: true },
    submit: ({ code, revokeCredentials }) =>
      api(deactivateEmployeeEndpoint, {
        params: { id: employee.id },
        // Ticked by default even while the list loads or when it is empty: whatever exists at that moment is revoked.
        query: { revokeCredentials: revokeCredentials && mayRevoke },
        totpCode: code,
      }),
    invalidates: [employeesQueryKey, apiKeysQueryKey, webhookEndpointsQueryKey],
    onDone: (result, { revokeCredentials }) =>
      onDone(deactivatedNotice(employee, result, revokeCredentials && mayRevoke)),
    fields: ["code"],
    conflict: "form",
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Deactivate" pendingLabel="Deactivating…" danger>
      <p style={{ margin: 0 }}>
        Deactivate <strong>{employee.name}</strong> ({employee.email})? Every session of theirs ends at once and they
        can no longer sign in
        {employee.status === "invited" ? "; the invitation link you sent them stops working" : ""}. Their name stays in
        the list and the audit log. This cannot be undone.
      </p>
      {mayList ? (
        <DataState query={credentials}>
          {credentials.data && found === 0 && (
            <p className="muted" style={{ margin: 0 }}>
              They created no API keys or webhook endpoints that still work.
            </p>
          )}
          {credentials.data && found > 0 && (
            <CreatedCredentials
              credentials={credentials.data}
              registration={mayRevoke ? apiForm.form.register("revokeCredentials") : null}
            />
          )}
        </DataState>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          Your role cannot read API keys and webhook endpoints, so the ones they created are not listed here and stay
          working.
        </p>
      )}
    </StepUpForm>
  );
}

function CreatedCredentials({
  credentials: { apiKeys, webhookEndpoints },
  registration,
}: {
  credentials: Credentials;
  /** The "also revoke" box, or null when the caller's role may not revoke. */
  registration: UseFormRegisterReturn<"revokeCredentials"> | null;
}) {
  const id = useId();
  return (
    <section className={styles.created} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.title}>
        Still working, created by them
      </h3>
      {apiKeys.length > 0 && (
        <>
          <h4 className={styles.kind}>{count(apiKeys.length, "API key", "API keys")}</h4>
          <ul className={styles.list} aria-label="API keys they created">
            {apiKeys.map((key) => (
              <li key={key.id}>
                <span>{key.name ?? "Unnamed key"}</span> <code>{key.prefix}…</code>
                {key.createdBy.type === "api_key" && <span className="muted"> (issued by one of their keys)</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {webhookEndpoints.length > 0 && (
        <>
          <h4 className={styles.kind}>{count(webhookEndpoints.length, "webhook endpoint", "webhook endpoints")}</h4>
          <ul className={styles.list} aria-label="Webhook endpoints they created">
            {webhookEndpoints.map((endpoint) => (
              <li key={endpoint.id} className={styles.url}>
                {endpoint.url}
              </li>
            ))}
          </ul>
        </>
      )}
      {registration ? (
        <div className={styles.revoke}>
          <input type="checkbox" id={`${id}-revoke`} aria-describedby={`${id}-revoke-effect`} {...registration} />
          <label htmlFor={`${id}-revoke`}>Also revoke these keys and disable these endpoints</label>
          <p id={`${id}-revoke-effect`} className="muted">
            In the same step as the deactivation. Untick to keep them working, e.g. while their integrations are handed
            over.
          </p>
        </div>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          Your role cannot revoke keys and webhook endpoints: ask an admin to, or they keep working.
        </p>
      )}
    </section>
  );
}
