"use client";

import type { z } from "zod";
import { codeIssues, schemaResolver } from "@/components/schema-resolver";
import { updateApiKeyInput, type RateLimit } from "@/lib/api-keys/schemas";

/** A key's own limit as typed in two boxes; both blank means the platform's default. */
export type RateLimitText = { requests: string; perSeconds: string };

/** The values of the dialog that changes a key's limit: the platform's default, or one of its own. */
export type KeyRateLimitFormValues = {
  choice: "default" | "own";
  rateLimit: RateLimitText;
  code: string;
};

const windowNames: Record<number, string> = { 1: "second", 60: "minute", 3600: "hour" };

/** "100 requests per second", "1 request per 10 seconds", "5,000 requests per hour". */
export function describeRateLimit({ requests, perSeconds }: RateLimit): string {
  const count = `${requests.toLocaleString("en-US")} ${requests === 1 ? "request" : "requests"}`;
  const window = windowNames[perSeconds] ?? `${perSeconds.toLocaleString("en-US")} seconds`;
  return `${count} per ${window}`;
}

/** The boxes' text for a limit (empty for none). */
export const rateLimitText = (limit: RateLimit | null): RateLimitText =>
  limit ? { requests: String(limit.requests), perSeconds: String(limit.perSeconds) } : { requests: "", perSeconds: "" };

// A blank box is not zero: NaN makes the API's schema say what it wants ("must be a whole number of ...").
const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text.trim()));

/**
 * The API's `rateLimit` for the two boxes: null when both are blank (the platform's default),
 * else both as numbers, so one box left blank is named by the API's schema.
 */
export function rateLimitInput({
  requests,
  perSeconds,
}: RateLimitText): { requests: number; perSeconds: number } | null {
  if (requests.trim() === "" && perSeconds.trim() === "") return null;
  return { requests: numberOf(requests), perSeconds: numberOf(perSeconds) };
}

/** The POST /v1/api_keys/{key} body that sets a key's limit, or (null) gives it the platform's default again. */
export const rateLimitBody = (values: KeyRateLimitFormValues): z.input<typeof updateApiKeyInput> => ({
  // An own limit left blank is still an own limit: the schema asks for both numbers.
  rateLimit:
    values.choice === "default" ? null : (rateLimitInput(values.rateLimit) ?? { requests: NaN, perSeconds: NaN }),
});

export const keyRateLimitResolver = schemaResolver<KeyRateLimitFormValues>(
  (path) => path.map(String).join("."),
  (values) => [...(updateApiKeyInput.safeParse(rateLimitBody(values)).error?.issues ?? []), ...codeIssues(values.code)],
);

export const keyRateLimitFields = ["rateLimit", "code"] as const satisfies readonly (
  keyof z.input<typeof updateApiKeyInput> | "code"
)[];
