import { z } from "zod";
import { jsonStringRecord } from "@/lib/db/json";
import type { Account } from "@/lib/generated/prisma/client";
import { pageSchemaOf } from "@/lib/contract/pagination";
import { apiKeyCreatedSchema } from "@/lib/api-keys/schemas";
import { text, withoutPrototypeKeys } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";

export const featureFlagNames = ["named", "partner"] as const;
export const featureFlagValues = ["require", "prefer", "discourage", "forbid"] as const;

export type FeatureFlagName = (typeof featureFlagNames)[number];
export type FeatureFlags = Partial<Record<FeatureFlagName, (typeof featureFlagValues)[number]>>;

export const featureFlagsSchema = z
  .object({ named: z.enum(featureFlagValues).optional(), partner: z.enum(featureFlagValues).optional() })
  .strict()
  .meta({ id: "FeatureFlags", description: "Flag name to preference; only `named` and `partner` exist." });

const isFlagName = (name: string): name is FeatureFlagName => (featureFlagNames as readonly string[]).includes(name);
const isPlainObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
const flagValue = z.enum(featureFlagValues, { error: `must be one of ${featureFlagValues.join(", ")}` });

/**
 * A flag map as clients send it. Unlike a strict object, which reports all unknown keys as one issue
 * on the map, each unknown flag gets its own 422 detail ("featureFlags.foo"), next to any bad values.
 * A prototype key (`__proto__`, which zod would drop unseen) is a 422 of its own.
 */
export const featureFlagsInput = withoutPrototypeKeys(
  z
    .looseObject({ named: flagValue.optional(), partner: flagValue.optional() })
    .superRefine(
      (flags, context) => {
        for (const name of Object.keys(flags)) {
          if (!isFlagName(name)) {
            context.addIssue({
              code: "custom",
              path: [name],
              message: `is not a feature flag; the flags are ${featureFlagNames.join(", ")}`,
            });
          }
        }
      },
      // Also when a value is wrong, so one answer names every problem.
      { when: (payload) => isPlainObject(payload.value) },
    )
    .transform((flags): FeatureFlags =>
      Object.fromEntries(featureFlagNames.flatMap((name) => (flags[name] ? [[name, flags[name]]] : []))),
    ),
).meta({
  id: "FeatureFlagsInput",
  description: "The flags to set; flags left out keep their value. Only `named` and `partner` exist.",
  additionalProperties: false,
});

export const accountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable(),
    featureFlags: featureFlagsSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Account" });

export function presentAccount(row: Pick<Account, "id" | "name" | "parentId" | "featureFlags" | "createdAt">) {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parentId,
    featureFlags: jsonStringRecord(row.featureFlags),
    createdAt: row.createdAt,
  };
}

export const accountPageSchema = pageSchemaOf(accountSchema, "AccountPage");

export const accountParams = z.object({ accountId: idSchema("acct") });

export const updateAccountInput = z.object({ featureFlags: featureFlagsInput }).meta({ id: "UpdateAccountInput" });

const accountName = text({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .min(1, "is required")
  .max(200);

export const createSandboxPlatformInput = z.object({ accountName }).meta({ id: "CreateSandboxPlatformInput" });

export const sandboxPlatformSchema = z
  .object({ account: accountSchema, apiKey: apiKeyCreatedSchema })
  .meta({ id: "SandboxPlatform", description: "The new platform's own account and a key of it, valid for 90 days." });

export const createSandboxAccountInput = z.object({ name: accountName }).meta({ id: "CreateSandboxAccountInput" });
