"use client";

import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from "react-hook-form";
import { issueApiKeyInput, latestExpiry, updateApiKeyInput } from "@/lib/api-keys/schemas";
import { ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { totpCodeSchema } from "@/lib/employees/schemas";

/**
 * The values of the key dialogs. Allowlist rows are objects because react-hook-form's field arrays
 * need them; the API (and its zod schema) takes plain strings, so paths are translated both ways.
 */
export type KeyFormValues = {
  name: string;
  /** The day picked in <input type="date">, as yyyy-mm-dd. */
  expiresOn: string;
  cidrAllowlist: { value: string }[];
  code: string;
};

type Issue = { path: readonly PropertyKey[]; message: string };

/** The form field an API or schema path belongs to ("cidrAllowlist.1" → the value of row 1). */
export function formPath(path: readonly PropertyKey[] | string): string {
  const parts = typeof path === "string" ? path.split(".") : path.map(String);
  if (parts[0] === "expiresAt") return "expiresOn";
  if (parts[0] === "cidrAllowlist") return parts.length > 1 ? `cidrAllowlist.${parts[1]}.value` : "cidrAllowlist.root";
  return parts.join(".");
}

/** A resolver running the API's own schemas, so the browser's messages read like the API's `details`. */
function resolverFrom(validate: (values: KeyFormValues) => Issue[]): Resolver<KeyFormValues> {
  return (values, _context, options) => {
    const issues = validate(values);
    if (issues.length === 0) return { values, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of issues) flat[formPath(issue.path)] ??= { type: "validate", message: issue.message };
    return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
  };
}

const codeIssues = (code: string): Issue[] => (totpCodeSchema.safeParse(code).error?.issues ?? []).map(({ message }) => ({ path: ["code"], message }));

/** The POST /v1/api_keys body for the form's values. Midnight UTC, so the picker's last day stays within one year. */
export function issueBody(values: KeyFormValues) {
  return {
    name: values.name.trim() === "" ? undefined : values.name,
    expiresAt: `${values.expiresOn}T00:00:00.000Z`,
    cidrAllowlist: values.cidrAllowlist.map((row) => row.value),
  };
}

export const allowlistBody = (values: KeyFormValues) => ({ cidrAllowlist: values.cidrAllowlist.map((row) => row.value) });

export const issueKeyResolver = resolverFrom((values) => {
  // An empty date picker would otherwise read as a malformed date-time.
  const missingDate: Issue[] = values.expiresOn ? [] : [{ path: ["expiresAt"], message: "choose the day the key stops working" }];
  return [...missingDate, ...(issueApiKeyInput.safeParse(issueBody(values)).error?.issues ?? []), ...codeIssues(values.code)];
});

export const updateAllowlistResolver = resolverFrom((values) => [
  ...(updateApiKeyInput.safeParse(allowlistBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const keyFormFields = ["name", "expiresAt", "cidrAllowlist", "code"] as const;

/**
 * Puts an API refusal next to its field: authenticator problems under the code, `details` under the
 * fields they name. Returns what no field claimed, for a message above the buttons.
 */
export function showApiError<F extends FieldValues & { code: string }>(error: unknown, setError: UseFormSetError<F>, fields: readonly string[]): string | null {
  if (error instanceof ApiRequestError && (error.code === "err_otp_invalid" || error.code === "err_otp_required")) {
    setError("code" as Path<F>, { type: "server", message: error.message }, { shouldFocus: true });
    return null;
  }
  const setAtFormPath: UseFormSetError<F> = (name, fieldError, options) => setError(formPath(name) as Path<F>, fieldError, options);
  return applyFieldErrors(error, setAtFormPath, fields);
}

/** yyyy-mm-dd of a moment, in UTC (the API's calendar). */
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The date picker's bounds: tomorrow to one year from today, so midnight UTC of any pick is accepted. */
export function expiryBounds(now = new Date()) {
  return {
    min: utcDay(new Date(now.getTime() + 86_400_000)),
    max: utcDay(latestExpiry(now)),
    suggested: utcDay(new Date(now.getTime() + 90 * 86_400_000)),
  };
}
