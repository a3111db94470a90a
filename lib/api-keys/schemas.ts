import { z } from "zod";
import { isString, jsonNames } from "@/lib/db/json";
import type { ApiKey } from "@/lib/generated/prisma/client";
import { isPermission, KEY_PERMISSIONS, PERMISSIONS, permissionList, sortPermissions } from "@/lib/auth/permissions";
import { text } from "@/lib/contract/text";
import { parseCidr } from "@/lib/net/ip";
import { idSchema } from "@/lib/ids/schema";

export const MAX_ALLOWLIST_ENTRIES = 100;

/** One year after `now`, on the calendar (so a key issued on 22 Nov may last until 22 Nov next year). */
export function latestExpiry(now: Date): Date {
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + 1);
  return limit;
}

/** Why an expiry is not acceptable at `now`, or null: strictly in the future and at most one year away. */
export function expiryProblem(expiresAt: Date, now: Date): string | null {
  if (expiresAt.getTime() <= now.getTime()) return "must be in the future";
  if (expiresAt.getTime() > latestExpiry(now).getTime()) return "must be at most one year from now";
  return null;
}

export const expiresAtSchema = z.iso
  .datetime({ offset: true, message: "must be an ISO-8601 date-time such as 2027-01-31T12:00:00Z" })
  .superRefine((value, context) => {
    const problem = expiryProblem(new Date(value), new Date());
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .meta({ description: "Strictly in the future and at most one year from now." });

/** Each entry validated on its own, so the error names its index ("cidrAllowlist.2"). Stored in canonical form, de-duplicated. */
export const cidrAllowlistSchema = z
  .array(text().max(64, "is too long for a CIDR range"))
  .max(MAX_ALLOWLIST_ENTRIES, `may hold at most ${MAX_ALLOWLIST_ENTRIES} ranges`)
  .superRefine((list, context) => {
    list.forEach((text, index) => {
      const parsed = parseCidr(text);
      if ("error" in parsed) context.addIssue({ code: "custom", path: [index], message: `"${text}" ${parsed.error}` });
    });
  })
  .transform((list) => [...new Set(list.map((text) => (parseCidr(text) as { text: string }).text))])
  .meta({ description: "IPv4 and IPv6 CIDR ranges allowed to use the key; empty or absent means any address." });

/** Permission names a key may hold, each checked on its own (the error names its index), sorted and de-duplicated. */
export const keyPermissionsSchema = z
  .array(text().max(64))
  .max(PERMISSIONS.length * 2)
  .superRefine((list, context) => {
    list.forEach((name, index) => {
      if (!(PERMISSIONS as readonly string[]).includes(name))
        context.addIssue({ code: "custom", path: [index], message: `"${name}" is not a permission` });
      else if (!(KEY_PERMISSIONS as readonly string[]).includes(name))
        context.addIssue({ code: "custom", path: [index], message: `"${name}" cannot be held by an API key` });
    });
  })
  .transform((list) => sortPermissions(list.filter(isPermission)))
  .meta({
    description:
      "What the key may do. Left out: every permission a key may hold except `employees:write`, which must be named. " +
      "Never `roles`, `owners` or `settings:write`. Only permissions the issuer holds itself (403 `err_forbidden` naming the first one missing).",
  });

export const RATE_LIMIT_REQUESTS_MAX = 100_000;
export const RATE_LIMIT_SECONDS_MAX = 3600;

const wholeNumber = (what: string, max: number) =>
  z
    .number({ message: `must be a whole number of ${what} (1..${max})` })
    .int(`must be a whole number of ${what} (1..${max})`)
    .min(1, `must be at least 1 (1..${max})`)
    .max(max, `must be at most ${max}`);

/** A rate limit: at most `requests` in each window of `perSeconds` seconds (windows aligned to the epoch). */
export const rateLimitSchema = z
  .strictObject(
    {
      requests: wholeNumber("requests", RATE_LIMIT_REQUESTS_MAX),
      perSeconds: wholeNumber("seconds", RATE_LIMIT_SECONDS_MAX),
    },
    { message: "must be an object { requests, perSeconds }" },
  )
  .meta({
    id: "RateLimit",
    description:
      `At most \`requests\` (1..${RATE_LIMIT_REQUESTS_MAX}) requests in each window of \`perSeconds\` seconds ` +
      `(1..${RATE_LIMIT_SECONDS_MAX}); windows start at multiples of \`perSeconds\` since the Unix epoch.`,
  });

export type RateLimit = z.output<typeof rateLimitSchema>;

const keyRateLimitInput = rateLimitSchema.nullable().meta({
  description: "The key's own rate limit; null or left out: the platform's `defaultKeyRateLimit` (GET /v1/settings).",
});

export const issueApiKeyInput = z
  .object({
    expiresAt: expiresAtSchema,
    name: text().trim().min(1, "must not be empty").max(100).optional(),
    cidrAllowlist: cidrAllowlistSchema.optional(),
    permissions: keyPermissionsSchema.optional(),
    rateLimit: keyRateLimitInput.optional(),
  })
  .meta({ id: "IssueApiKeyInput" });

export const rollApiKeyInput = z
  .object({
    expiresAt: expiresAtSchema.meta({
      description: "Expiry of the new secret: strictly in the future and at most one year from now.",
    }),
    overlapSeconds: z
      .number()
      .int("must be a whole number of seconds")
      .min(0, "must be between 0 and 86400")
      .max(86_400, "must be between 0 and 86400")
      .default(0)
      .meta({ description: "How long the old secret keeps working (0..86400 s, default 0: it stops at once)." }),
  })
  .meta({ id: "RollApiKeyInput" });

export const updateApiKeyInput = z
  .object({
    cidrAllowlist: cidrAllowlistSchema.optional(),
    rateLimit: keyRateLimitInput.optional().meta({ description: "null: the platform's default from now on." }),
  })
  .refine((body) => body.cidrAllowlist !== undefined || body.rateLimit !== undefined, {
    message: "name what to change: cidrAllowlist, rateLimit or both",
  })
  .meta({ id: "UpdateApiKeyInput", description: "What is left out stays as it is." });

export type UpdateApiKeyInput = z.output<typeof updateApiKeyInput>;

export const apiKeyParams = z.object({ key: idSchema("key") });

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    prefix: z.string().meta({ description: "The secret's first characters, to recognise it." }),
    expiresAt: z.iso.datetime(),
    cidrAllowlist: z.array(z.string()),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: "Updated at most once a minute." }),
    lastUsedIp: z
      .string()
      .nullable()
      .meta({ description: "The client address of the use that last set `lastUsedAt` (so at most once a minute)." }),
    lastUsedUserAgent: z.string().nullable().meta({
      description:
        "The `User-Agent` of the use that last set `lastUsedAt`: control characters dropped, at most 256 characters.",
    }),
    revokedAt: z.iso.datetime().nullable(),
    leak: z
      .object({
        url: z.string().meta({ description: "Where the secret was found public (the report's `url`)." }),
        source: z.string().meta({ description: "What kind of place: `content`, `commit`, `pull_request`, `gist`..." }),
        reportedAt: z.iso.datetime(),
      })
      .nullable()
      .meta({
        description:
          "Set when a secret-scanning report (POST /v1/secret_scanning/reports) found the secret public and revoked " +
          "the key: why `revokedAt` is set. null otherwise.",
      }),
    permissions: z.array(z.enum(PERMISSIONS)),
    rateLimit: rateLimitSchema.nullable().meta({ description: "The key's own limit; null: the platform's default." }),
    createdBy: z
      .object({ type: z.enum(["employee", "api_key"]), id: z.string() })
      .nullable()
      .meta({
        description: "The employee or key that issued it; null for keys issued by a key before this was recorded.",
      }),
  })
  .meta({ id: "ApiKey" });

export const apiKeyCreatedSchema = apiKeySchema
  .extend({ secret: z.string().meta({ description: "The key itself. Shown only in this response; store it now." }) })
  .meta({ id: "ApiKeyCreated" });

const usageCount = z.number().int().min(0);

export const apiKeyUsageSchema = z
  .object({
    days: z
      .array(
        z.object({
          date: z.iso.date().meta({ description: "The UTC day." }),
          ok: usageCount.meta({ description: "Answered 2xx or 3xx." }),
          client_error: usageCount.meta({ description: "Answered 4xx other than 401, 403 and 429." }),
          rate_limited: usageCount.meta({ description: "Answered 429." }),
          denied: usageCount.meta({ description: "Answered 401 or 403 (the key revoked, expired, or not allowed)." }),
        }),
      )
      .meta({ description: "The last 30 UTC days, today included, oldest first; a day without requests has zeros." }),
  })
  .meta({ id: "ApiKeyUsage" });

export type KeyCreator = { type: "employee" | "api_key"; id: string };

type KeyTime = "expiresAt" | "createdAt" | "lastUsedAt" | "revokedAt" | "leakedAt";

/** A key's row: from Prisma (times as Dates, Json parsed) or from a raw read (times as ISO strings, Json as text). */
export type ApiKeyFields = Omit<ApiKey, "accountId" | "secretHash" | KeyTime> & {
  [Time in KeyTime]: ApiKey[Time] | string | Extract<ApiKey[Time], null>;
};

export function presentApiKey<Row extends ApiKeyFields>(row: Row) {
  const { createdByType, createdById, leakedAt, leakUrl, leakSource, rateLimitRequests, rateLimitPerSeconds, ...rest } =
    row;
  const createdBy: KeyCreator | null = createdByType && createdById ? { type: createdByType, id: createdById } : null;
  const leak = leakedAt ? { url: leakUrl ?? "", source: leakSource ?? "", reportedAt: leakedAt } : null;
  return {
    ...rest,
    leak,
    cidrAllowlist: jsonNames(row.cidrAllowlist, isString),
    permissions: permissionList(row.permissions),
    rateLimit: rateLimitOf(rateLimitRequests, rateLimitPerSeconds),
    createdBy,
  };
}

// Leak reports in GitHub's secret-scanning partner format (lib/api-keys/leak-reports.ts).

/** At most this many tokens in one report (GitHub sends a handful; 1 MiB is the body's own limit). */
export const MAX_REPORTED_TOKENS = 1000;

export const reportedTokenSchema = z.object({
  token: z.string().max(1000).meta({ description: "The secret as found." }),
  type: z.string().max(200).meta({ description: "The token type the partner registered (e.g. `service_api_key`)." }),
  url: z.string().max(4096).meta({ description: "Where it was found public." }),
  source: z.string().max(200).meta({ description: "What kind of place: `content`, `commit`, `gist`..." }),
});

export const leakReportSchema = z
  .array(reportedTokenSchema)
  .min(1)
  .max(MAX_REPORTED_TOKENS)
  .meta({ id: "SecretScanningReport" });

export const leakLabelSchema = z.object({
  token_raw: z.string().meta({ description: "The reported token, as sent." }),
  token_type: z.string(),
  label: z.enum(["true_positive", "false_positive"]),
});

export const leakAnswerSchema = z.array(leakLabelSchema).meta({ id: "SecretScanningAnswer" });

/** A key's own limit from its two columns (both set, or neither: the platform's default). */
export const rateLimitOf = (requests: number | null, perSeconds: number | null): RateLimit | null =>
  requests !== null && perSeconds !== null ? { requests, perSeconds } : null;

/** The two columns a key's limit is stored in (null: the platform's default). */
export const rateLimitColumns = (limit: RateLimit | null) => ({
  rateLimitRequests: limit?.requests ?? null,
  rateLimitPerSeconds: limit?.perSeconds ?? null,
});
