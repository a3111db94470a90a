import { inTransaction } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import {
  updateInformationRequest,
  updateInformationRequestStatus,
  type Changer,
  type Decider,
} from "@/lib/information-requests/information-requests";
import type { BulkInformationRequestsInput } from "@/lib/information-requests/schemas";

// POST /v1/information_requests/bulk: each request as if sent alone to its own endpoint, in its own
// transaction with its own audit record, timeline entry and webhook event; a refusal stops only its item.

/** One item's audit record: the action and details its own endpoint would record. */
export type BulkItemRecord = { action: string; targetId: string; details: Record<string, unknown> };

/** How the caller (the route, which knows the request) writes each item's audit record. */
export type BulkAudit = {
  /** An applied item's record, in the item's transaction: it commits with the change or not at all. */
  applied(record: BulkItemRecord): Promise<void>;
  /** A refused item's record, once its transaction rolled back; answers the error as the item would have got it alone. */
  refused(record: BulkItemRecord, error: unknown): Promise<BulkItemError>;
};

type AssignedItem = Awaited<ReturnType<typeof updateInformationRequest>>;

/** Why an item was refused: the contract's error code and message. */
export type BulkItemError = { error_code: string; message: string };

export type BulkOutcome =
  | { id: string; ok: true; newAssignee: AssignedItem["newAssignee"]; request: AssignedItem["request"] | null }
  | { id: string; ok: false; error: BulkItemError };

/** The audit action and details of one item, as its own endpoint records them. */
export function bulkItemRecordOf(input: BulkInformationRequestsInput, id: string): BulkItemRecord {
  if (input.action === "assign") {
    const { assigneeId, priority } = input;
    return {
      action: "information_request.update",
      targetId: id,
      details: { ...(assigneeId !== undefined && { assigneeId }), ...(priority !== undefined && { priority }) },
    };
  }
  const { status, reasonCode, reason } = input;
  return {
    action: "information_request.update_status",
    targetId: id,
    details: { status, ...(reasonCode && { reasonCode }), ...(reason && { reason }) },
  };
}

/**
 * Applies `input` to each of its requests in turn (in the order sent). `decider`: the employee who
 * changes statuses (null for an API key, which may only assign: the status endpoint is for staff).
 */
export async function bulkUpdateInformationRequests({
  input,
  by,
  decider,
  audit,
}: {
  input: BulkInformationRequestsInput;
  by: Changer;
  decider: Decider | null;
  audit: BulkAudit;
}): Promise<BulkOutcome[]> {
  if (input.action === "status" && !decider) {
    throw new DomainError(
      "forbidden",
      "Changing the status of information requests is for staff (an employee session)",
    );
  }
  const outcomes: BulkOutcome[] = [];
  for (const id of input.ids) {
    const record = bulkItemRecordOf(input, id);
    try {
      const outcome = await inTransaction(async () => {
        const done = await applyOne(input, id, by, decider!);
        const details = done.before
          ? { ...record.details, before: done.before, after: afterOf(done.request) }
          : record.details;
        await audit.applied({ ...record, details });
        return done;
      });
      outcomes.push({ id, ok: true, newAssignee: outcome.newAssignee, request: outcome.request });
    } catch (error) {
      outcomes.push({ id, ok: false, error: await audit.refused(record, error) });
    }
  }
  return outcomes;
}

const afterOf = (request: { assigneeId: string | null; priority: string }) => ({
  assigneeId: request.assigneeId,
  priority: request.priority,
});

async function applyOne(input: BulkInformationRequestsInput, id: string, by: Changer, decider: Decider) {
  if (input.action === "assign") {
    return updateInformationRequest({ id, assigneeId: input.assigneeId, priority: input.priority, by });
  }
  const request = await updateInformationRequestStatus({
    id,
    status: input.status!,
    reasonCode: input.reasonCode,
    reason: input.reason,
    by: decider,
  });
  return { request, before: null, newAssignee: null };
}
