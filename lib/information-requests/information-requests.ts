import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { db } from "@/lib/db";
import { informationRequestFilters, pageInformationRequests, type FilterCaller } from "@/lib/information-requests/list";
import {
  canTransition,
  informationRequestSchema,
  presentInformationRequest,
  type InformationRequestKind,
  type InformationRequestPriority,
  type InformationRequestReasonCode,
  type InformationRequestStatus,
  type ListInformationRequestsQuery,
} from "@/lib/information-requests/schemas";
import { recordTimelineEntry } from "@/lib/information-requests/timeline";
import { presentKycSubmission } from "@/lib/kyc/schemas";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { scopeAccountId, scopePlatformId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's request, transfer or submission is simply not found (404, never 403).

async function findInformationRequest(id: string) {
  const row = await tenantDb().informationRequest.findUnique({ where: { id } });
  if (!row) throw notFound("Information request");
  return row;
}

/** A page of the scope's requests matching the list's filters, in its sort (lib/information-requests/list.ts). */
export async function listInformationRequests({
  query,
  caller,
}: {
  query: ListInformationRequestsQuery;
  caller: FilterCaller;
}) {
  const page = await pageInformationRequests(query, informationRequestFilters(query, caller));
  return { ...page, items: page.items.map((row) => presentInformationRequest(row)) };
}

/** One request with the KYC submission it concerns (null when it concerns none) and, by name, who reviewed and decided it. */
export async function getInformationRequest({ id }: { id: string }) {
  const row = await findInformationRequest(id);
  const submission = row.submissionId
    ? await tenantDb().kycSubmission.findUnique({ where: { id: row.submissionId } })
    : null;
  const peopleIds = [row.reviewerId, row.decidedById].filter((value): value is string => value !== null);
  const people = peopleIds.length
    ? await tenantDb().employee.findMany({ where: { id: { in: peopleIds } }, select: { id: true, name: true } })
    : [];
  const person = (personId: string | null) => people.find((employee) => employee.id === personId) ?? null;
  return {
    ...presentInformationRequest(row),
    submission: submission ? presentKycSubmission(submission) : null,
    reviewer: person(row.reviewerId),
    decidedBy: person(row.decidedById),
  };
}

/** The requests raised against one of the scope's transfers, oldest first. */
export async function listTransferInformationRequests({ transferId }: { transferId: string }) {
  // Queried here rather than through lib/transfers so this module depends only on the data model.
  const transfer = await tenantDb().transfer.findUnique({ where: { id: transferId }, select: { id: true } });
  if (!transfer) throw notFound("Transfer");
  const rows = await tenantDb().informationRequest.findMany({
    where: { transferId: transfer.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(presentInformationRequest);
}

const illegalTransition = (id: string, from: string, to: string) =>
  new DomainError("conflict", `Information request ${id} cannot move from ${from} to ${to}`, {
    status: `cannot move from ${from} to ${to}`,
  });

/** The employee who decides: their id, and whether the platform holds them to four-eyes approval. */
export type Decider = { employeeId: string; fourEyesApproval: boolean };

function checkFourEyes(row: { reviewerId: string | null }, status: InformationRequestStatus, by: Decider) {
  if (by.fourEyesApproval && (status === "approved" || status === "rejected") && row.reviewerId === by.employeeId) {
    throw new DomainError(
      "forbidden",
      "Four-eyes approval is on: you started this review, so a second reviewer must decide it",
    );
  }
}

/**
 * Moves a request along the state machine, recording who started the review and who decided, when and
 * why (a reason code, and words), with a `status_changed` timeline entry. With four-eyes approval on,
 * the reviewer cannot approve or reject it. The write is conditional on the status it was read in, so
 * of two concurrent transitions from the same state exactly one succeeds and the other gets 409.
 */
export async function updateInformationRequestStatus({
  id,
  status,
  reasonCode,
  reason,
  by,
  now = new Date(),
}: {
  id: string;
  status: InformationRequestStatus;
  reasonCode?: InformationRequestReasonCode;
  reason?: string;
  by: Decider;
  now?: Date;
}) {
  const row = await findInformationRequest(id);
  const from = row.status as InformationRequestStatus;
  if (!canTransition(from, status)) throw illegalTransition(row.id, from, status);
  checkFourEyes(row, status, by);
  const data =
    status === "on_review"
      ? { status, reviewerId: by.employeeId, reviewStartedAt: now }
      : {
          status,
          decidedById: by.employeeId,
          decidedAt: now,
          decisionReason: reason ?? null,
          decisionReasonCode: reasonCode ?? null,
        };
  const { count } = await tenantDb().informationRequest.updateMany({ where: { id: row.id, status: from }, data });
  if (count === 0) {
    const current = await findInformationRequest(id);
    throw new DomainError(
      "conflict",
      `Information request ${row.id} changed from ${from} to ${current.status} meanwhile; ${status} was not applied`,
      { status: `is now ${current.status}` },
    );
  }
  await recordTimelineEntry({
    informationRequestId: row.id,
    type: "status_changed",
    actor: { type: "employee", id: by.employeeId },
    data: { status, previousStatus: from, reasonCode: reasonCode ?? null, reason: reason ?? null },
    at: now,
  });
  const changed = presentInformationRequest(await findInformationRequest(id));
  await emitResourceEvent("information_request.status_changed", informationRequestSchema, changed);
  return changed;
}

/** Who changes a request: an employee or an API key. */
export type Changer = { type: "employee" | "api_key"; id: string };

/** An active employee of the platform whose role may decide requests, or a 422 naming assigneeId. */
async function findAssignee(assigneeId: string) {
  // Employees are the platform's (tenantDb confines them to it): another platform's is not found here.
  const employee = await tenantDb().employee.findUnique({
    where: { id: assigneeId },
    select: { id: true, name: true, email: true, status: true, role: true },
  });
  if (!employee || employee.status !== "active") {
    throw new DomainError("invalid", `${assigneeId} is not an active employee of this platform`, {
      assigneeId: "must be an active employee of this platform",
    });
  }
  if (!ROLE_PERMISSIONS[employee.role].includes("information_requests:write")) {
    throw new DomainError("invalid", `${assigneeId}'s role (${employee.role}) may not decide information requests`, {
      assigneeId: `must be an employee whose role may decide information requests (not ${employee.role})`,
    });
  }
  return employee;
}

/**
 * Assigns a request (or unassigns it: `assigneeId` null) and sets its priority. Each field that actually
 * changes gets its timeline entry; a new assignee is announced (`information_request.assigned`). The
 * write is conditional on the values read, so a concurrent change is a 409, never a lost update.
 * Answers the request, what it was before, and the new assignee (to notify) when the assignment changed.
 */
export async function updateInformationRequest({
  id,
  assigneeId,
  priority,
  by,
  now = new Date(),
}: {
  id: string;
  assigneeId?: string | null;
  priority?: InformationRequestPriority;
  by: Changer;
  now?: Date;
}) {
  const row = await findInformationRequest(id);
  const before = { assigneeId: row.assigneeId, priority: row.priority };
  const assignee = assigneeId ? await findAssignee(assigneeId) : null;
  const reassigned = assigneeId !== undefined && assigneeId !== row.assigneeId;
  const reprioritised = priority !== undefined && priority !== row.priority;
  if (reassigned || reprioritised) {
    const { count } = await tenantDb().informationRequest.updateMany({
      where: { id: row.id, assigneeId: row.assigneeId, priority: row.priority },
      data: { ...(reassigned && { assigneeId }), ...(reprioritised && { priority }) },
    });
    if (count === 0) {
      throw new DomainError("conflict", `Information request ${row.id} was changed meanwhile; send the change again`);
    }
  }
  const actor = { type: by.type, id: by.id };
  if (reassigned) {
    const data = { assigneeId: assigneeId ?? null, previousAssigneeId: row.assigneeId };
    await recordTimelineEntry({ informationRequestId: row.id, type: "assigned", actor, data, at: now });
  }
  if (reprioritised) {
    const data = { priority: priority!, previousPriority: row.priority };
    await recordTimelineEntry({ informationRequestId: row.id, type: "priority_changed", actor, data, at: now });
  }
  const request = presentInformationRequest(await findInformationRequest(id));
  if (reassigned) await emitResourceEvent("information_request.assigned", informationRequestSchema, request);
  return { request, before, newAssignee: reassigned ? assignee : null };
}

/** When a request of `kind` raised at `now` falls due: now plus the platform's SLA hours for the kind, or null without one. */
async function dueAtFor(kind: InformationRequestKind, now: Date): Promise<Date | null> {
  // The platform's own account holds its settings; db(), since a sub-account's scope does not reach it.
  const platform = await db().account.findUniqueOrThrow({
    where: { id: scopePlatformId() },
    select: { slaHoursDueDiligence: true, slaHoursEndorsement: true },
  });
  const hours = kind === "due_diligence" ? platform.slaHoursDueDiligence : platform.slaHoursEndorsement;
  return hours === null ? null : new Date(now.getTime() + hours * 3_600_000);
}

/**
 * Raises a `requested` information request, as compliance review would (the sandbox and the demo
 * seed use it). A transfer or submission it names must be the scope account's own.
 */
export async function raiseInformationRequest({
  kind,
  transferId,
  submissionId,
}: {
  kind: InformationRequestKind;
  transferId?: string | null;
  submissionId?: string | null;
}) {
  if (transferId) {
    const transfer = await tenantDb().transfer.findUnique({ where: { id: transferId }, select: { id: true } });
    if (!transfer) throw notFound(`Transfer ${transferId}`);
  }
  if (submissionId) {
    const submission = await tenantDb().kycSubmission.findUnique({ where: { id: submissionId }, select: { id: true } });
    if (!submission) throw notFound(`KYC submission ${submissionId}`);
  }
  const now = new Date();
  const row = await tenantDb().informationRequest.create({
    data: {
      id: newId("ir"),
      accountId: scopeAccountId(),
      kind,
      status: "requested",
      transferId: transferId ?? null,
      submissionId: submissionId ?? null,
      createdAt: now,
      dueAt: await dueAtFor(kind, now),
    },
  });
  const raised = presentInformationRequest(row);
  await emitResourceEvent("information_request.created", informationRequestSchema, raised);
  return raised;
}
