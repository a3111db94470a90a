import { z } from "zod";
import { rateLimitSchema } from "@/lib/api-keys/schemas";
import { ssoInput, ssoSettingsSchema } from "@/lib/sso/schemas";

/** The longest SLA a platform may set: a year, in hours. */
export const SLA_HOURS_MAX = 8760;

const slaHoursValue = z
  .number({ message: `must be a whole number of hours (1..${SLA_HOURS_MAX}) or null` })
  .int(`must be a whole number of hours (1..${SLA_HOURS_MAX}) or null`)
  .min(1, "must be at least 1 hour (null: no SLA)")
  .max(SLA_HOURS_MAX, `must be at most ${SLA_HOURS_MAX} hours (a year)`)
  .nullable();

/** The settings an employee's session carries (what the dashboard needs on every page). */
export const sessionSettingsSchema = z
  .object({
    requireTwoFactor: z.boolean().meta({ description: "Employees without 2FA may only sign in, sign out and enrol." }),
    fourEyesApproval: z
      .boolean()
      .meta({ description: "The employee who started a review cannot approve or reject it." }),
  })
  .meta({ id: "SessionSettings" });

export const slaHoursSchema = z.object({ due_diligence: slaHoursValue, endorsement: slaHoursValue }).meta({
  id: "SlaHours",
  description:
    "Hours a new information request of each kind has before it is due (`dueAt`); null: no SLA. " +
    "A change applies to requests created afterwards.",
});

const defaultKeyRateLimit = rateLimitSchema.meta({
  description: "The rate limit of every key without its own (`rateLimit` null). Default: 100 requests per second.",
});

/** A whole number within `min..max` of `unit`, with one message that says so. */
const wholeNumber = (min: number, max: number, unit: string) =>
  z
    .number({ message: `must be a whole number of ${unit} (${min}..${max})` })
    .int(`must be a whole number of ${unit} (${min}..${max})`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const RETENTION_LIMITS = {
  webhookPayloadDays: { min: 1, max: 3650, unit: "days" },
  sessionDays: { min: 1, max: 365, unit: "days" },
  recordsYears: { min: 1, max: 10, unit: "years" },
} as const;

const retentionValue = (name: keyof typeof RETENTION_LIMITS) => {
  const { min, max, unit } = RETENTION_LIMITS[name];
  return wholeNumber(min, max, unit);
};

export const retentionSchema = z
  .object({
    webhookPayloadDays: retentionValue("webhookPayloadDays").meta({
      description: "Days a webhook delivery keeps its payload (`eventData`, then null); the delivery itself stays.",
    }),
    sessionDays: retentionValue("sessionDays").meta({ description: "Days an ended session is kept, then deleted." }),
    recordsYears: retentionValue("recordsYears").meta({
      description: "Years a closed account's records are held before its personal data may be erased.",
    }),
  })
  .meta({
    id: "Retention",
    description: "How long personal data is kept (docs/retention.md). Owners only; the sweep applies it every hour.",
  });

export const platformSettingsSchema = sessionSettingsSchema
  .extend({ slaHours: slaHoursSchema, defaultKeyRateLimit, retention: retentionSchema, sso: ssoSettingsSchema })
  .meta({ id: "PlatformSettings" });

export const updateSettingsInput = z
  .object({
    requireTwoFactor: z.boolean().optional(),
    fourEyesApproval: z.boolean().optional(),
    slaHours: z
      .object({ due_diligence: slaHoursValue.optional(), endorsement: slaHoursValue.optional() })
      .optional()
      .meta({ description: "A kind left out keeps its SLA; null removes it." }),
    defaultKeyRateLimit: defaultKeyRateLimit.optional(),
    retention: retentionSchema
      .partial()
      .optional()
      .meta({ description: "Owners only. A value left out keeps its setting." }),
    sso: ssoInput.optional(),
  })
  .meta({ id: "UpdateSettingsInput", description: "Settings left out keep their value." });

export type UpdateSettingsInput = z.output<typeof updateSettingsInput>;

type SettingsRow = {
  requireTwoFactor: boolean;
  fourEyesApproval: boolean;
  slaHoursDueDiligence: number | null;
  slaHoursEndorsement: number | null;
  defaultKeyRateLimitRequests: number;
  defaultKeyRateLimitPerSeconds: number;
  retentionWebhookPayloadDays: number;
  retentionSessionDays: number;
  retentionRecordsYears: number;
};

export function presentSettings(row: SettingsRow) {
  return {
    requireTwoFactor: row.requireTwoFactor,
    fourEyesApproval: row.fourEyesApproval,
    slaHours: { due_diligence: row.slaHoursDueDiligence, endorsement: row.slaHoursEndorsement },
    defaultKeyRateLimit: { requests: row.defaultKeyRateLimitRequests, perSeconds: row.defaultKeyRateLimitPerSeconds },
    retention: {
      webhookPayloadDays: row.retentionWebhookPayloadDays,
      sessionDays: row.retentionSessionDays,
      recordsYears: row.retentionRecordsYears,
    },
  };
}

/** The columns an update writes: the SLA hours of each kind it names, and the rest as they are. */
export function settingsColumns({ slaHours, defaultKeyRateLimit, retention, sso: _sso, ...rest }: UpdateSettingsInput) {
  return {
    ...rest,
    ...(retention?.webhookPayloadDays !== undefined && { retentionWebhookPayloadDays: retention.webhookPayloadDays }),
    ...(retention?.sessionDays !== undefined && { retentionSessionDays: retention.sessionDays }),
    ...(retention?.recordsYears !== undefined && { retentionRecordsYears: retention.recordsYears }),
    ...(defaultKeyRateLimit && {
      defaultKeyRateLimitRequests: defaultKeyRateLimit.requests,
      defaultKeyRateLimitPerSeconds: defaultKeyRateLimit.perSeconds,
    }),
    ...(slaHours?.due_diligence !== undefined && { slaHoursDueDiligence: slaHours.due_diligence }),
    ...(slaHours?.endorsement !== undefined && { slaHoursEndorsement: slaHours.endorsement }),
  };
}
