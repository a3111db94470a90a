"use client";

import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldErrors, Resolver, UseFormSetError } from "react-hook-form";
import { ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { totpCodeSchema } from "@/lib/employees/schemas";
import { createWebhookEndpointInput, updateWebhookEndpointInput } from "@/lib/webhooks/schemas";

/** The values of the create and edit dialogs. */
export type EndpointFormValues = {
  url: string;
  description: string;
  /** Event type names, sent as they are: the API's schema names any it refuses ("events.3"). */
  events: string[];
  code: string;
};

type Issue = { path: readonly PropertyKey[]; message: string };

/** The form field an API or schema path belongs to: one message over the whole checklist. */
export const formPath = (path: readonly PropertyKey[] | string): string => {
  const parts = typeof path === "string" ? path.split(".") : path.map(String);
  return parts[0] === "events" ? "events" : parts.join(".");
};

/** POST /v1/webhook_endpoints's body for the form's values (an empty description is left out). */
export const createBody = (values: EndpointFormValues) => ({
  url: values.url.trim(),
  description: values.description.trim() === "" ? undefined : values.description.trim(),
  events: values.events,
});

/** POST /v1/webhook_endpoints/{id}'s body: everything the dialog shows, an emptied description included. */
export const updateBody = (values: EndpointFormValues) => ({ url: values.url.trim(), description: values.description.trim(), events: values.events });

const codeIssues = (code: string): Issue[] => (totpCodeSchema.safeParse(code).error?.issues ?? []).map(({ message }) => ({ path: ["code"], message }));

function resolverFrom(validate: (values: EndpointFormValues) => Issue[]): Resolver<EndpointFormValues> {
  return (values, _context, options) => {
    const issues = validate(values);
    if (issues.length === 0) return { values, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of issues) flat[formPath(issue.path)] ??= { type: "validate", message: issue.message };
    return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
  };
}

/** The create dialog's checks: the API's own input schema (lib/webhooks/schemas.ts), then the authenticator code. */
export const createEndpointResolver = resolverFrom((values) => [
  ...(createWebhookEndpointInput.safeParse(createBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const updateEndpointResolver = resolverFrom((values) => [
  ...(updateWebhookEndpointInput.safeParse(updateBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const endpointFormFields = ["url", "description", "events", "code"] as const;

/**
 * Puts an API refusal next to its field: authenticator problems under the code, `details` under the
 * fields they name ("events.2" under the checklist). Returns what no field claimed, for a message above the buttons.
 */
export function showEndpointError(error: unknown, setError: UseFormSetError<EndpointFormValues>): string | null {
  if (error instanceof ApiRequestError && (error.code === "err_otp_invalid" || error.code === "err_otp_required")) {
    setError("code", { type: "server", message: error.message }, { shouldFocus: true });
    return null;
  }
  const setAtFormPath: UseFormSetError<EndpointFormValues> = (name, fieldError, options) => setError(formPath(name) as typeof name, fieldError, options);
  return applyFieldErrors(error, setAtFormPath, endpointFormFields);
}
