import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { informationRequestSchema } from "@/lib/information-requests/schemas";
import { platformSettingsSchema } from "@/lib/settings/schemas";

// TEMPORARY: the contract's shapes ("Information requests as cases") until the API's own schemas and
// endpoints land in lib/information-requests and lib/settings; then this file goes.

export const informationRequestPriorities = ["low", "normal", "high", "urgent"] as const;
export const informationRequestReasonCodes = [
  "insufficient_documents",
  "source_of_funds_unverified",
  "identity_mismatch",
  "sanctions_match",
  "adverse_media",
  "no_response",
  "other",
] as const;
export type InformationRequestPriority = (typeof informationRequestPriorities)[number];
export type InformationRequestReasonCode = (typeof informationRequestReasonCodes)[number];

const requestSchema = informationRequestSchema.extend({
  decisionReasonCode: z.enum(informationRequestReasonCodes).nullable(),
  assigneeId: z.string().nullable(),
  priority: z.enum(informationRequestPriorities),
  dueAt: z.iso.datetime().nullable(),
  overdue: z.boolean(),
});

const define = endpointGroup({ tag: "Information requests", auth: "any" });

export const listInformationRequestsEndpoint = define("GET /v1/information_requests", {
  summary: "List information requests",
  permission: "information_requests:read",
  query: pageQuerySchema.extend({
    kind: z.string().optional(),
    status: z.array(z.string()).optional(),
    startDate: z.string().optional(),
    endDate: z.string().optional(),
    assigneeId: z.string().optional(),
    overdue: z.string().optional(),
    priority: z.string().optional(),
    sort: z.string().optional(),
  }),
  response: pageSchemaOf(requestSchema, "InformationRequestPage"),
});

export const bulkInformationRequestsInput = z.object({
  ids: z.array(z.string()).min(1).max(100),
  action: z.enum(["assign", "status"]),
  assigneeId: z.string().nullable().optional(),
  status: z.string().optional(),
  reasonCode: z.enum(informationRequestReasonCodes).optional(),
  reason: z.string().optional(),
});

export const bulkInformationRequestsEndpoint = define("POST /v1/information_requests/bulk", {
  summary: "Act on several information requests",
  auth: "session",
  permission: "information_requests:write",
  body: bulkInformationRequestsInput,
  response: z.object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        error: z.object({ error_code: z.string(), message: z.string() }).optional(),
      }),
    ),
  }),
});

export const slaHoursSchema = z.object({
  due_diligence: z.number().int().min(1).max(8760).nullable(),
  endorsement: z.number().int().min(1).max(8760).nullable(),
});

const settingsSchema = platformSettingsSchema.extend({ slaHours: slaHoursSchema });

export const getSettingsEndpoint = define("GET /v1/settings", {
  summary: "The platform's settings",
  permission: "settings:read",
  response: settingsSchema,
});

export const updateSettingsEndpoint = define("POST /v1/settings", {
  summary: "Change the platform's settings",
  permission: "settings:write",
  totp: true,
  body: settingsSchema.partial(),
  response: settingsSchema,
});
