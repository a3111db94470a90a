import { z } from "zod";

export const featureFlagNames = ["named", "partner"] as const;
export const featureFlagValues = ["require", "prefer", "discourage", "forbid"] as const;

export const featureFlagsSchema = z
  .object({ named: z.enum(featureFlagValues).optional(), partner: z.enum(featureFlagValues).optional() })
  .strict()
  .meta({ id: "FeatureFlags", description: "Flag name to preference; only `named` and `partner` exist." });

export const accountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable(),
    featureFlags: featureFlagsSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Account" });

export type AccountRow = { id: string; name: string; parentId: string | null; featureFlags: string; createdAt: Date };

export function presentAccount(row: AccountRow) {
  return { ...row, featureFlags: JSON.parse(row.featureFlags) as Record<string, string> };
}
