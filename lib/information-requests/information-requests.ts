import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { db } from "@/lib/db";
import { informationRequestFilters, pageInformationRequests, type FilterCaller } from "@/lib/information-requests/list";
import {
  canTransition,
  informationRequestSchema,
  presentInformationRequest,
  type InformationRequestKind,
  type InformationRequestStatus,
  type ListInformationRequestsQuery,
} from "@/lib/information-requests/schemas";
import { presentKycSubmission } from "@/lib/kyc/schemas";
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

/**
 * Moves a request along the state machine, recording who started the review and who decided, when and
 * why. With four-eyes approval on, the reviewer cannot approve or reject it. The write is conditional
 * on the status it was read in, so of two concurrent transitions from the same state exactly one
 * succeeds and the other gets 409.
 */
export async function updateInformationRequestStatus({
  id,
  status,
  reason,
  by,
  now = new Date(),
}: {
  id: string;
  status: InformationRequestStatus;
  reason?: string;
  by: { employeeId: string; fourEyesApproval: boolean };
  now?: Date;
}) {
  const row = await findInformationRequest(id);
  const from = row.status as InformationRequestStatus;
  if (!canTransition(from, status)) throw illegalTransition(row.id, from, status);
  if (by.fourEyesApproval && (status === "approved" || status === "rejected") && row.reviewerId === by.employeeId) {
    throw new DomainError(
      "forbidden",
      "Four-eyes approval is on: you started this review, so a second reviewer must decide it",
    );
  }
  const data =
    status === "on_review"
      ? { status, reviewerId: by.employeeId, reviewStartedAt: now }
      : { status, decidedById: by.employeeId, decidedAt: now, decisionReason: reason ?? null };
  const { count } = await tenantDb().informationRequest.updateMany({ where: { id: row.id, status: from }, data });
  if (count === 0) {
    const current = await findInformationRequest(id);
    throw new DomainError(
      "conflict",
      `Information request ${row.id} changed from ${from} to ${current.status} meanwhile; ${status} was not applied`,
      { status: `is now ${current.status}` },
    );
  }
  const changed = presentInformationRequest(await findInformationRequest(id));
  await emitResourceEvent("information_request.status_changed", informationRequestSchema, changed);
  return changed;
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
