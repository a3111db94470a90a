import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  informationRequestDetailSchema,
  informationRequestParams,
  informationRequestSchema,
  informationRequestStatuses,
} from "@/lib/information-requests/schemas";

// Stand-ins for the case endpoints (CONTRACT.md, "Information requests as cases") until their
// definitions land in lib/information-requests; same paths and shapes.

export const informationRequestPriorities = ["low", "normal", "high", "urgent"] as const;
export type InformationRequestPriority = (typeof informationRequestPriorities)[number];
export const informationRequestReasonCodes = [
  "insufficient_documents",
  "source_of_funds_unverified",
  "identity_mismatch",
  "sanctions_match",
  "adverse_media",
  "no_response",
  "other",
] as const;
export type InformationRequestReasonCode = (typeof informationRequestReasonCodes)[number];

const define = endpointGroup({ tag: "Information requests", auth: "any" });

const caseFields = z.object({
  assigneeId: z.string().nullable(),
  priority: z.enum(informationRequestPriorities),
  dueAt: z.iso.datetime().nullable(),
  overdue: z.boolean(),
  decisionReasonCode: z.enum(informationRequestReasonCodes).nullable(),
});
export const caseSchema = informationRequestSchema.extend(caseFields.shape);

export const getCaseEndpoint = define("GET /v1/information_requests/{id}", {
  summary: "Get an information request",
  permission: "information_requests:read",
  params: informationRequestParams,
  response: informationRequestDetailSchema.extend(caseFields.shape),
});

export const decideInformationRequestEndpoint = define("POST /v1/information_requests/{id}/status", {
  summary: "Move an information request to another status",
  auth: "session",
  permission: "information_requests:write",
  params: informationRequestParams,
  body: z.object({
    status: z.enum(informationRequestStatuses),
    reasonCode: z.enum(informationRequestReasonCodes).optional(),
    reason: z.string().optional(),
  }),
  response: caseSchema,
});

export const updateInformationRequestEndpoint = define("POST /v1/information_requests/{id}", {
  summary: "Assign an information request or change its priority",
  auth: "session",
  permission: "information_requests:write",
  params: informationRequestParams,
  body: z.object({
    assigneeId: z.string().nullable().optional(),
    priority: z.enum(informationRequestPriorities).optional(),
  }),
  response: caseSchema,
});

const actor = z.object({
  type: z.enum(["employee", "api_key", "system"]),
  id: z.string().nullable(),
  name: z.string().nullable(),
});
const entry = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ at: z.iso.datetime(), type: z.literal(type), actor, ...shape });

export const timelineEntrySchema = z.discriminatedUnion("type", [
  entry("created", {}),
  entry("assigned", { assigneeId: z.string().nullable(), previousAssigneeId: z.string().nullable() }),
  entry("priority_changed", {
    priority: z.enum(informationRequestPriorities),
    previousPriority: z.enum(informationRequestPriorities),
  }),
  entry("status_changed", {
    status: z.string(),
    previousStatus: z.string(),
    reasonCode: z.enum(informationRequestReasonCodes).nullable(),
    reason: z.string().nullable(),
  }),
  entry("note_added", { noteId: z.string(), body: z.string() }),
  entry("document_added", {
    documentId: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.number(),
  }),
  entry("sla_breached", {}),
]);

export const listInformationRequestTimelineEndpoint = define("GET /v1/information_requests/{id}/timeline", {
  summary: "A request's timeline",
  permission: "information_requests:read",
  params: informationRequestParams,
  response: z.array(timelineEntrySchema),
});
