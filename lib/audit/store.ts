import type { AuditEvent } from "@/lib/generated/prisma/client";
import { type ColumnList, deferredInsert, insertInto } from "@/lib/db";

// The audit trail's raw statement: the record every change and every refusal appends.

/** An audit record: every column. */
export const AUDIT_EVENT_INSERT_COLUMNS = {
  model: "AuditEvent",
  columns: [
    "id",
    "platformId",
    "accountId",
    "actedForAccountId",
    "at",
    "actorType",
    "actorId",
    "action",
    "targetId",
    "ip",
    "outcome",
    "status",
    "requestId",
    "clientRequestId",
    "details",
  ],
  /** Set later, once, by the audit sealer (lib/audit/seal/sealer.ts). */
  omitted: ["checkpointId"],
} as const satisfies ColumnList<AuditEvent>;

/**
 * Appends an audit record, in the caller's transaction when there is one (deferredInsert: on
 * PostgreSQL sent with the change's own inserts just before COMMIT). `details` as JSON text.
 */
export function insertAuditEvent(
  row: Omit<AuditEvent, "details" | "checkpointId"> & { details: string | null },
): Promise<void> {
  return deferredInsert(insertInto("AuditEvent", AUDIT_EVENT_INSERT_COLUMNS.columns), row);
}
