import { z } from "zod";

export const platformSettingsSchema = z
  .object({
    requireTwoFactor: z.boolean().meta({ description: "Employees without 2FA may only sign in, sign out and enrol." }),
    fourEyesApproval: z
      .boolean()
      .meta({ description: "The employee who started a review cannot approve or reject it." }),
  })
  .meta({ id: "PlatformSettings" });

export const updateSettingsInput = z
  .object({ requireTwoFactor: z.boolean().optional(), fourEyesApproval: z.boolean().optional() })
  .meta({ id: "UpdateSettingsInput", description: "Settings left out keep their value." });

export function presentSettings(row: { requireTwoFactor: boolean; fourEyesApproval: boolean }) {
  return { requireTwoFactor: row.requireTwoFactor, fourEyesApproval: row.fourEyesApproval };
}
