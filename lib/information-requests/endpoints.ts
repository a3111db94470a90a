import { z } from "zod";
import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import {
  informationRequestDetailSchema,
  informationRequestPageSchema,
  informationRequestParams,
  informationRequestSchema,
  listInformationRequestsQuery,
  raiseInformationRequestInput,
  transferParams,
  updateInformationRequestStatusInput,
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
    "as does a transition that lost a race with a concurrent one. `reason` is required for `rejected` and `expired`. " +
    "The request records who started the review and who decided, when and why; with the platform's `fourEyesApproval` " +
    "on, the employee who started the review cannot approve or reject it (403).",
  auth: "session",
  permission: "information_requests:write",
  params: informationRequestParams,
  body: updateInformationRequestStatusInput,
  response: informationRequestSchema,
  errors: [409],
  action: "information_request.update_status",
  auditDetails: (body: z.output<typeof updateInformationRequestStatusInput>) => ({
    status: body.status,
    ...(body.reason ? { reason: body.reason } : {}),
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
