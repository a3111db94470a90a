import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { dateRangeQuery, rangeInOrder } from "@/lib/contract/date-range";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { freeText } from "@/lib/contract/text";
import { kycSubmissionSchema } from "@/lib/kyc/schemas";
import { idSchema } from "@/lib/ids/schema";

export const informationRequestKinds = ["due_diligence", "endorsement"] as const;
export const informationRequestStatuses = ["requested", "on_review", "approved", "rejected", "expired"] as const;

export const informationRequestPriorities = ["low", "normal", "high", "urgent"] as const;
/** Why a request was rejected or expired, in the contract's enumerated terms. */
export const informationRequestReasonCodes = [
  "insufficient_documents",
  "source_of_funds_unverified",
  "identity_mismatch",
  "sanctions_match",
  "adverse_media",
  "no_response",
  "other",
] as const;

export type InformationRequestKind = (typeof informationRequestKinds)[number];
export type InformationRequestStatus = (typeof informationRequestStatuses)[number];
export type InformationRequestPriority = (typeof informationRequestPriorities)[number];
export type InformationRequestReasonCode = (typeof informationRequestReasonCodes)[number];

/** The statuses in which a request is still being worked on: past its `dueAt` there, it is overdue. */
export const openStatuses: readonly InformationRequestStatus[] = ["requested", "on_review"];

/** Whether a request is past its due date while still open. */
export const isOverdue = (row: { status: unknown; dueAt: Date | string | null }, now = new Date()) =>
  row.dueAt !== null &&
  new Date(row.dueAt).getTime() < now.getTime() &&
  openStatuses.includes(row.status as InformationRequestStatus);

/** The contract's state machine; anything not listed (including staying put) is a 409. */
export const informationRequestTransitions: Record<InformationRequestStatus, readonly InformationRequestStatus[]> = {
  requested: ["on_review", "expired"],
  on_review: ["approved", "rejected", "expired"],
  approved: [],
  rejected: [],
  expired: [],
};

export const canTransition = (from: InformationRequestStatus, to: InformationRequestStatus) =>
  informationRequestTransitions[from].includes(to);

export const informationRequestParams = z.object({ id: idSchema("ir") });
export const transferParams = z.object({ id: idSchema("tr") });

const statusFilter = z.enum(informationRequestStatuses);
const priorityFilter = z.enum(informationRequestPriorities);

/** The list's orders: newest (or oldest, with `order`) first, or the soonest due first. */
export const informationRequestSorts = ["createdAt", "dueAt"] as const;
export type InformationRequestSort = (typeof informationRequestSorts)[number];

export const listInformationRequestsQuery = pageQuerySchema
  .extend({
    kind: z.enum(informationRequestKinds).optional(),
    // Repeatable (`?status=on_review&status=requested`): a repeated parameter arrives as a list (lib/http/pipeline/parse-query.ts).
    status: z
      .union([statusFilter, z.array(statusFilter)])
      .transform((value) => [value].flat())
      .optional()
      .meta({
        description:
          "Only requests in these statuses; repeat the parameter for several (`status=requested&status=on_review`).",
      }),
    assigneeId: z
      .union([idSchema("emp", "must be an employee id (emp_...), `me` or `none`"), z.enum(["me", "none"])])
      .optional()
      .meta({
        description:
          "Only requests assigned to this employee; `me`: to the calling employee (not for API keys); `none`: unassigned ones.",
      }),
    overdue: z
      .enum(["true"], { message: "must be `true` (leave it out for every request)" })
      .transform(() => true as const)
      .optional()
      .meta({ description: "`true`: only requests past their `dueAt` and still `requested` or `on_review`." }),
    priority: z
      .union([priorityFilter, z.array(priorityFilter)])
      .transform((value) => [value].flat())
      .optional()
      .meta({ description: "Only requests of these priorities; repeat the parameter for several." }),
    sort: z
      .enum(informationRequestSorts)
      .default("createdAt")
      .meta({
        description:
          "`createdAt` (default; newest first, or oldest first with `order=asc`) or `dueAt` (soonest first, requests " +
          "without a due date last, ties by id; `order` does not apply). A `next` cursor is only valid with the sort it was issued for.",
      }),
    ...dateRangeQuery,
  })
  .refine(...rangeInOrder);

export type ListInformationRequestsQuery = z.output<typeof listInformationRequestsQuery>;

export const informationRequestSchema = z
  .object({
    id: z.string(),
    kind: z.enum(informationRequestKinds),
    status: z.enum(informationRequestStatuses),
    transferId: z.string().nullable(),
    submissionId: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    reviewerId: z.string().nullable().meta({ description: "The employee who moved it to `on_review`." }),
    reviewStartedAt: z.iso.datetime().nullable(),
    decidedById: z.string().nullable().meta({ description: "The employee who approved, rejected or expired it." }),
    decidedAt: z.iso.datetime().nullable(),
    decisionReason: z
      .string()
      .nullable()
      .meta({ description: "Why, in the decider's words; always given with reason code `other`." }),
    decisionReasonCode: z
      .enum(informationRequestReasonCodes)
      .nullable()
      .meta({ description: "Why, in enumerated terms; given for `rejected` and `expired` decided by staff." }),
    assigneeId: z.string().nullable().meta({ description: "The employee working on it; null when unassigned." }),
    priority: z.enum(informationRequestPriorities),
    dueAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: "Creation time plus the platform's SLA for its kind (`slaHours`); null without one." }),
    overdue: z
      .boolean()
      .meta({ description: "`dueAt` has passed and the request is still `requested` or `on_review`." }),
  })
  .meta({ id: "InformationRequest" });

const employeeRef = z.object({ id: z.string(), name: z.string() }).meta({ id: "EmployeeRef" });

export const informationRequestDetailSchema = informationRequestSchema
  .extend({
    submission: kycSubmissionSchema.nullable().meta({ description: "The linked KYC submission, or null." }),
    reviewer: employeeRef.nullable().meta({ description: "Who started the review, by name." }),
    decidedBy: employeeRef.nullable().meta({ description: "Who decided, by name." }),
  })
  .meta({ id: "InformationRequestWithSubmission" });

export const informationRequestPageSchema = pageSchemaOf(informationRequestSchema, "InformationRequestPage");

/** The statuses that end a request; a person who moves it there is its decider. */
export const decisionStatuses = [
  "approved",
  "rejected",
  "expired",
] as const satisfies readonly InformationRequestStatus[];
/** Decisions staff must give a reason code for. */
export const statusesNeedingReason: readonly InformationRequestStatus[] = ["rejected", "expired"];
export const REASON_MAX_LENGTH = 2000;

const reasonText = freeText()
  .trim()
  .min(1, "must not be empty")
  .max(REASON_MAX_LENGTH, `must be at most ${REASON_MAX_LENGTH} characters`);

const decisionFields = {
  status: z.enum(informationRequestStatuses),
  reasonCode: z.enum(informationRequestReasonCodes).optional().meta({
    description: "Why, in enumerated terms: required for `rejected` and `expired`, optional for `approved`.",
  }),
  reason: reasonText.optional().meta({
    description:
      "Why, in words (1..2000 characters; tab and line feed allowed, no other control characters): required with " +
      "reason code `other`, optional otherwise.",
  }),
};

type DecisionFields = { status?: InformationRequestStatus; reasonCode?: InformationRequestReasonCode; reason?: string };

/** The decision's rules across its fields: a reason code for rejected and expired, words with `other`, neither for on_review. */
function checkDecision({ status, reasonCode, reason }: DecisionFields, context: z.RefinementCtx) {
  if (status === undefined) return;
  if (status === "on_review") {
    if (reasonCode !== undefined)
      context.addIssue({ code: "custom", path: ["reasonCode"], message: "is only for a decision" });
    if (reason !== undefined) context.addIssue({ code: "custom", path: ["reason"], message: "is only for a decision" });
    return;
  }
  if (statusesNeedingReason.includes(status) && reasonCode === undefined) {
    context.addIssue({ code: "custom", path: ["reasonCode"], message: `is required to move a request to ${status}` });
  }
  if (reasonCode === "other" && reason === undefined) {
    context.addIssue({ code: "custom", path: ["reason"], message: "is required with reason code `other`" });
  }
}

export const updateInformationRequestStatusInput = z
  .object(decisionFields)
  .superRefine(checkDecision)
  .meta({ id: "UpdateInformationRequestStatusInput" });

export type UpdateInformationRequestStatusInput = z.output<typeof updateInformationRequestStatusInput>;

const assignmentFields = {
  assigneeId: idSchema("emp", "must be an employee id (emp_...) or null")
    .nullable()
    .optional()
    .meta({ description: "The employee to work on it (one whose role may decide requests); null unassigns it." }),
  priority: z.enum(informationRequestPriorities).optional(),
};

export const updateInformationRequestInput = z
  .object(assignmentFields)
  .refine((input) => input.assigneeId !== undefined || input.priority !== undefined, {
    message: "provide assigneeId, priority or both",
  })
  .meta({ id: "UpdateInformationRequestInput" });

export type UpdateInformationRequestInput = z.output<typeof updateInformationRequestInput>;

export const BULK_MAX_IDS = 100;

export const bulkInformationRequestsInput = z
  .object({
    ids: z
      .array(idSchema("ir", "must be an information request id (ir_...)"))
      .min(1, "must name at least one request")
      .max(BULK_MAX_IDS, `must name at most ${BULK_MAX_IDS} requests`)
      .refine((ids) => new Set(ids).size === ids.length, "must not name a request twice"),
    action: z.enum(["assign", "status"]).meta({
      description:
        "`assign`: as POST /v1/information_requests/{id} with assigneeId and priority; `status`: as its /status.",
    }),
    ...assignmentFields,
    status: decisionFields.status.optional(),
    reasonCode: decisionFields.reasonCode,
    reason: decisionFields.reason,
  })
  .superRefine((input, context) => {
    const misplaced = (fields: (keyof typeof input)[], action: string) => {
      for (const field of fields) {
        if (input[field] !== undefined)
          context.addIssue({ code: "custom", path: [field], message: `is not for action ${action}` });
      }
    };
    if (input.action === "assign") {
      misplaced(["status", "reasonCode", "reason"], "assign");
      if (input.assigneeId === undefined && input.priority === undefined)
        context.addIssue({ code: "custom", path: ["assigneeId"], message: "provide assigneeId, priority or both" });
      return;
    }
    misplaced(["assigneeId", "priority"], "status");
    if (input.status === undefined)
      context.addIssue({ code: "custom", path: ["status"], message: "is required for action status" });
    checkDecision(input, context);
  })
  .meta({ id: "BulkInformationRequestsInput" });

export type BulkInformationRequestsInput = z.output<typeof bulkInformationRequestsInput>;

export const bulkResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        error: z.object({ error_code: z.string(), message: z.string() }).optional().meta({
          description: "Why this one was refused: the `error_code` and `message` of the error body it would get alone.",
        }),
      }),
    ),
  })
  .meta({ id: "BulkInformationRequestsResult" });

const timelineActorSchema = z
  .object({
    type: z.enum(["employee", "api_key", "system"]),
    id: z.string().nullable(),
    name: z.string().nullable().meta({ description: "The employee's or key's name; null for the service itself." }),
  })
  .meta({ id: "TimelineActor" });

const entry = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.object({ at: z.iso.datetime(), type: z.literal(type), actor: timelineActorSchema, ...shape });

export const timelineEntrySchema = z
  .discriminatedUnion("type", [
    entry("created", {}),
    entry("assigned", { assigneeId: z.string().nullable(), previousAssigneeId: z.string().nullable() }),
    entry("priority_changed", {
      priority: z.enum(informationRequestPriorities),
      previousPriority: z.enum(informationRequestPriorities),
    }),
    entry("status_changed", {
      status: z.enum(informationRequestStatuses),
      previousStatus: z.enum(informationRequestStatuses),
      reasonCode: z.enum(informationRequestReasonCodes).nullable(),
      reason: z.string().nullable(),
    }),
    entry("note_added", { noteId: z.string(), body: z.string() }),
    entry("document_added", {
      documentId: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      size: z.number().int(),
    }),
    entry("sla_breached", { dueAt: z.iso.datetime().nullable().optional() }),
  ])
  .meta({
    id: "InformationRequestTimelineEntry",
    description: "One thing that happened to a request: when, what, who, and the entry's own fields.",
  });

export type TimelineEntry = z.input<typeof timelineEntrySchema>;

export const raiseInformationRequestInput = z
  .object({
    kind: z.enum(informationRequestKinds),
    transferId: idSchema("tr", "must be a transfer id (tr_...)").optional(),
    submissionId: idSchema("sub", "must be a KYC submission id (sub_...)").optional(),
  })
  .meta({ id: "RaiseInformationRequestInput" });

const presentRow = presenterOf(informationRequestSchema);

/** A request as the API shows it: its columns, and whether it is overdue now. */
export const presentInformationRequest = <Row extends Omit<Parameters<typeof presentRow>[0], "overdue">>(row: Row) =>
  presentRow({ ...row, overdue: isOverdue(row) });
