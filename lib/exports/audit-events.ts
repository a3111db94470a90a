import { z } from "zod";
import { listAuditEvents } from "@/lib/audit/audit-events";
import { auditEventQuery, type presentAuditEvent } from "@/lib/audit/schemas";
import { rangeInOrder } from "@/lib/contract/date-range";
import { csvExport, EXPORT_PAGE_SIZE, type Exporter } from "@/lib/exports/exports";
import { eachPage } from "@/lib/exports/stream";

// GET /v1/exports/audit_events: the audit trail's list, every page of it, as CSV.

const { next: _next, limit: _limit, ...listFilters } = auditEventQuery.shape;

/** The list's filters and order (GET /v1/audit_events), without its page size and cursor. */
export const auditEventExportQuery = z.object(listFilters).refine(...rangeInOrder);
export type AuditEventExportQuery = z.output<typeof auditEventExportQuery>;

const COLUMNS = [
  "id",
  "at",
  "accountId",
  "actedForAccountId",
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
] as const satisfies readonly (keyof ReturnType<typeof presentAuditEvent>)[];

/** The scope's platform's audit events matching the list's filters, as a CSV attachment, read a page at a time. */
export function exportAuditEvents({ query, by }: { query: AuditEventExportQuery; by: Exporter }): Response {
  return csvExport({
    resource: "audit_events",
    filters: query,
    by,
    header: COLUMNS,
    pages: eachPage((next) => listAuditEvents({ ...query, limit: EXPORT_PAGE_SIZE, next })),
    toRecord: (event) => COLUMNS.map((column) => event[column]),
  });
}
