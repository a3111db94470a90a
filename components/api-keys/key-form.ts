"use client";

import type { z } from "zod";
import { rateLimitInput, type RateLimitText } from "@/components/api-keys/rate-limit";
import { codeIssues, schemaResolver, type Issue } from "@/components/schema-resolver";
import { issueApiKeyInput, latestExpiry, rollApiKeyInput, updateApiKeyInput } from "@/lib/api-keys/schemas";

/**
 * The values of the key dialogs. Allowlist rows are objects because react-hook-form's field arrays
 * need them; the API (and its zod schema) takes plain strings, so paths are translated both ways.
 */
export type KeyFormValues = {
  name: string;
  /** The day picked in <input type="date">, as yyyy-mm-dd. */
  expiresOn: string;
  cidrAllowlist: { value: string }[];
  /** Permission names, sent as they are: the API's schema names any it refuses ("permissions.3"). */
  permissions: string[];
  /** The key's own limit; both boxes blank: the platform's default. */
  rateLimit: RateLimitText;
  code: string;
};

/** The values of the roll dialog; the overlap comes from radio buttons, so it is a string of seconds. */
export type RollFormValues = {
  expiresOn: string;
  overlapSeconds: string;
  code: string;
};

/** The form field an API or schema path belongs to ("cidrAllowlist.1" → the value of row 1). */
export function formPath(path: readonly PropertyKey[] | string): string {
  const parts = typeof path === "string" ? path.split(".") : path.map(String);
  if (parts[0] === "expiresAt") return "expiresOn";
  if (parts[0] === "cidrAllowlist") return parts.length > 1 ? `cidrAllowlist.${parts[1]}.value` : "cidrAllowlist.root";
  // One message over the whole checklist: each names the permission it is about.
  if (parts[0] === "permissions") return "permissions";
  return parts.join(".");
}

// An empty date picker would otherwise read as a malformed date-time.
const dateIssues = (expiresOn: string): Issue[] =>
  expiresOn ? [] : [{ path: ["expiresAt"], message: "choose the day the key stops working" }];

/** Midnight UTC of the picked day, so the picker's last day stays within one year. */
const expiresAtOf = (expiresOn: string) => `${expiresOn}T00:00:00.000Z`;

/**
 * The POST /v1/api_keys body for the form's values. `permissions` is always sent, so the key gets
 * exactly what the checklist shows (left out, the API would pick its defaults). A blank limit is left
 * out: the key follows the platform's default.
 */
export function issueBody(values: KeyFormValues): z.input<typeof issueApiKeyInput> {
  return {
    name: values.name.trim() === "" ? undefined : values.name,
    expiresAt: expiresAtOf(values.expiresOn),
    cidrAllowlist: values.cidrAllowlist.map((row) => row.value),
    permissions: values.permissions,
    rateLimit: rateLimitInput(values.rateLimit) ?? undefined,
  };
}

/** The POST /v1/api_keys/{key}/roll body for the roll dialog's values. */
export const rollBody = (values: RollFormValues): z.input<typeof rollApiKeyInput> => ({
  expiresAt: expiresAtOf(values.expiresOn),
  overlapSeconds: Number(values.overlapSeconds),
});

export const allowlistBody = (values: KeyFormValues): z.input<typeof updateApiKeyInput> => ({
  cidrAllowlist: values.cidrAllowlist.map((row) => row.value),
});

export const issueKeyResolver = schemaResolver<KeyFormValues>(formPath, (values) => [
  ...dateIssues(values.expiresOn),
  ...(issueApiKeyInput.safeParse(issueBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const rollKeyResolver = schemaResolver<RollFormValues>(formPath, (values) => [
  ...dateIssues(values.expiresOn),
  ...(rollApiKeyInput.safeParse(rollBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const updateAllowlistResolver = schemaResolver<KeyFormValues>(formPath, (values) => [
  ...(updateApiKeyInput.safeParse(allowlistBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

// The API's body fields (checked against its schema) and the form's own code field.
export const keyFormFields = [
  "name",
  "expiresAt",
  "cidrAllowlist",
  "permissions",
  "rateLimit",
  "code",
] as const satisfies readonly (keyof z.input<typeof issueApiKeyInput> | "code")[];
export const rollFormFields = ["expiresAt", "overlapSeconds", "code"] as const satisfies readonly (
  keyof z.input<typeof rollApiKeyInput> | "code"
)[];

/** How long the old secret may keep working after a roll: the choices the dialog offers. */
export const OVERLAP_CHOICES = [
  { seconds: 0, label: "None", hint: "The old secret stops at once. Choose this if it may have leaked." },
  { seconds: 3_600, label: "1 hour", hint: "Time to deploy the new secret before the old one stops." },
  { seconds: 86_400, label: "24 hours", hint: "For systems that are slow to redeploy." },
] as const;

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
