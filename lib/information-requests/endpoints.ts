import { z } from "zod";
import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import {
  bulkInformationRequestsInput,
  bulkResultSchema,
  informationRequestDetailSchema,
  informationRequestPageSchema,
  informationRequestParams,
  informationRequestSchema,
  listInformationRequestsQuery,
  raiseInformationRequestInput,
  timelineEntrySchema,
  transferParams,
  updateInformationRequestInput,
  updateInformationRequestStatusInput,
  type BulkInformationRequestsInput,
  type UpdateInformationRequestInput,
  type UpdateInformationRequestStatusInput,
} from "@/lib/information-requests/schemas";

const define = endpointGroup({ tag: "Information requests", auth: "any" });

export const listInformationRequestsEndpoint = define("GET /v1/information_requests", {
  summary: "List information requests",
  description:
    "Filters: `kind`; `status` and `priority`, each repeatable for several (`status=requested&status=on_review`); " +
    "`assigneeId`: an employee id, `me` (the calling employee; an API key gets 422) or `none` (unassigned); " +
    "`overdue=true`: past `dueAt` and still `requested` or `on_review`; `startDate` and `endDate` bound `createdAt`, " +
    "both inclusive, each a date (`2026-11-01`, the whole UTC day) or an ISO-8601 date-time. A `startDate` after " +
    "`endDate` answers 422. `sort`: `createdAt` (default, newest first; `order=asc` for oldest first) or `dueAt` " +
    "(soonest first, requests without a due date last, ties by id). Keyset pages: requests created while paging " +
    "never repeat or push one out of view; a `next` cursor used with another sort or order answers 400.",
  permission: "information_requests:read",
  query: listInformationRequestsQuery,
  response: informationRequestPageSchema,
});

export const getInformationRequestEndpoint = define("GET /v1/information_requests/{id}", {
  summary: "Get an information request with its linked KYC submission",
  permission: "information_requests:read",
  params: informationRequestParams,
  response: informationRequestDetailSchema,
});

export const listTransferInformationRequestsEndpoint = define("GET /v1/transfers/{id}/information_requests", {
  summary: "List the information requests raised against a transfer",
  description: "A plain array, oldest first.",
  permission: "information_requests:read",
  params: transferParams,
  response: z.array(informationRequestSchema),
});

export const updateInformationRequestStatusEndpoint = define("POST /v1/information_requests/{id}/status", {
  summary: "Move an information request to another status",
  description:
    "Staff only (employee session; API keys get 403). Transitions: `requested` → `on_review` → `approved` | `rejected`; " +
    "`requested` | `on_review` → `expired`. Any other transition, staying in the same status included, answers 409, " +
    "as does a transition that lost a race with a concurrent one. `reasonCode` is required for `rejected` and " +
    "`expired` (`insufficient_documents`, `source_of_funds_unverified`, `identity_mismatch`, `sanctions_match`, " +
    "`adverse_media`, `no_response`, `other`) and optional for `approved`; `reason` (words) is required with `other` " +
    "and optional otherwise; neither goes with `on_review`. The request records who started the review and who " +
    "decided, when and why (`decisionReasonCode`, `decisionReason`), and its timeline gets a `status_changed` entry. " +
    "With the platform's `fourEyesApproval` on, the employee who started the review cannot approve or reject it (403).",
  auth: "session",
  permission: "information_requests:write",
  params: informationRequestParams,
  body: updateInformationRequestStatusInput,
  response: informationRequestSchema,
  errors: [409],
  action: "information_request.update_status",
  auditDetails: (body: UpdateInformationRequestStatusInput) => statusAuditDetails(body),
});

/** What a status change's audit record keeps: the status, and the reason code and words when given. */
export const statusAuditDetails = (
  body: Pick<UpdateInformationRequestStatusInput, "status" | "reasonCode" | "reason">,
) => ({
  status: body.status,
  ...(body.reasonCode ? { reasonCode: body.reasonCode } : {}),
  ...(body.reason ? { reason: body.reason } : {}),
});

/** What an assignment's audit record keeps: the fields sent. */
export const assignmentAuditDetails = (body: Pick<UpdateInformationRequestInput, "assigneeId" | "priority">) => ({
  ...(body.assigneeId !== undefined ? { assigneeId: body.assigneeId } : {}),
  ...(body.priority !== undefined ? { priority: body.priority } : {}),
});

export const updateInformationRequestEndpoint = define("POST /v1/information_requests/{id}", {
  summary: "Assign an information request, or set its priority",
  description:
    "`assigneeId`: an active employee of the platform whose role may decide requests (`information_requests:write`), " +
    "otherwise 422; `null` unassigns it. `priority`: `low`, `normal`, `high` or `urgent`. At least one of the two. " +
    "Each field that changes gets a timeline entry (`assigned`, `priority_changed`); a new assignment is announced " +
    "by the `information_request.assigned` event and, when e-mail is configured, e-mailed to the new assignee " +
    "(unless they assigned it to themselves). A change that lost a race with a concurrent one answers 409.",
  permission: "information_requests:write",
  params: informationRequestParams,
  body: updateInformationRequestInput,
  response: informationRequestSchema,
  errors: [409],
  // Its own transaction: the assignee's e-mail goes out only once the assignment committed.
  ownTransactions: true,
  action: "information_request.update",
  auditDetails: (body: UpdateInformationRequestInput) => assignmentAuditDetails(body),
});

export const listInformationRequestTimelineEndpoint = define("GET /v1/information_requests/{id}/timeline", {
  summary: "The timeline of an information request",
  description:
    "A plain array, oldest first: `created`, then `assigned`, `priority_changed`, `status_changed` (with its reason " +
    "code and reason), `note_added`, `document_added` and `sla_breached` entries as they happened, each with " +
    "`at`, `type`, `actor` (`employee`, `api_key` or `system`, with its name) and its own fields. Entries are never " +
    "changed or removed.",
  permission: "information_requests:read",
  params: informationRequestParams,
  response: z.array(timelineEntrySchema),
});

export const bulkInformationRequestsEndpoint = define("POST /v1/information_requests/bulk", {
  summary: "Assign, or change the status of, several information requests at once",
  description:
    "`ids`: 1..100 distinct requests. `action: assign` takes `assigneeId` and/or `priority` as " +
    "POST /v1/information_requests/{id} does; `action: status` takes `status`, `reasonCode` and `reason` as " +
    "POST /v1/information_requests/{id}/status does, and like it is for staff only: an API key gets 403 for the whole " +
    "call. Each request is checked, applied and audited exactly as if sent alone, in a transaction of its own " +
    "(four-eyes approval included), with its own audit record, timeline entry and webhook event; one's refusal does " +
    "not stop the others. The answer lists each id in the order sent: `ok`, or `error` with the `error_code` and " +
    "`message` it would have got alone (another account's request: `err_not_found`).",
  permission: "information_requests:write",
  body: bulkInformationRequestsInput,
  response: bulkResultSchema,
  errors: [403],
  ownTransactions: true,
  action: "information_request.bulk",
  // The requests themselves are named by each item's own record (its target), not here.
  auditDetails: (body: BulkInformationRequestsInput) => ({
    action: body.action,
    count: body.ids.length,
    ...(body.action === "assign"
      ? assignmentAuditDetails(body)
      : statusAuditDetails({ ...body, status: body.status! })),
  }),
});

export const raiseSandboxInformationRequestEndpoint = defineSandbox("POST /v1/sandbox/information_requests", {
  summary: "Raise a `requested` information request",
  description:
    "Sandbox only. `transferId` and `submissionId`, when given, must be objects of the same account (otherwise 404).",
  body: raiseInformationRequestInput,
  response: informationRequestSchema,
  status: 201,
  errors: [404],
  action: "sandbox.information_request.raise",
});
