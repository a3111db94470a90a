"use client";

import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldErrors, Resolver, UseFormSetError } from "react-hook-form";
import { z } from "zod";
import { ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { totpCodeSchema } from "@/lib/employees/schemas";
import { text } from "@/lib/http/text";
import { isEventType } from "@/lib/webhooks/event-types";

/** The values of the create and edit dialogs. */
export type EndpointFormValues = {
  url: string;
  description: string;
  /** Event type names, sent as they are: the API's schema names any it refuses ("events.3"). */
  events: string[];
  code: string;
};

type Issue = { path: readonly PropertyKey[]; message: string };

const MAX_URL_LENGTH = 2048;

/**
 * The form's checks, the same rules as lib/webhooks/schemas.ts's input schemas. That file cannot run
 * in the browser (its URL guard resolves DNS and reads the server's settings), so the URL is only
 * checked for shape here; the API answers where it may not point, and that message shows under the field.
 */
const endpointInput = z.object({
  url: text()
    .min(1, "is required")
    .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), "must be a URL such as https://example.com/webhooks"),
  description: text().max(500, "must be at most 500 characters").optional(),
  events: z
    .array(z.string())
    .min(1, "choose at least one event type")
    .superRefine((list, context) => {
      list.forEach((name, index) => {
        if (!isEventType(name)) context.addIssue({ code: "custom", path: [index], message: `"${name}" is not an event type` });
      });
    }),
});

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

/** The create dialog's checks: the API's own schema, then the authenticator code. */
export const createEndpointResolver = resolverFrom((values) => [...(endpointInput.safeParse(createBody(values)).error?.issues ?? []), ...codeIssues(values.code)]);

export const updateEndpointResolver = resolverFrom((values) => [...(endpointInput.safeParse(updateBody(values)).error?.issues ?? []), ...codeIssues(values.code)]);

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
