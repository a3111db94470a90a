import { z } from "zod";
import { listAuditEvents } from "@/lib/audit/audit-events";
import { auditEventQuery, type presentAuditEvent } from "@/lib/audit/schemas";
import { rangeInOrder } from "@/lib/contract/date-range";
import { csvExport, EXPORT_PAGE_SIZE, type Exporter } from "@/lib/exports/exports";
import { eachPage } from "@/lib/exports/stream";
import { exportAuditTrail } from "@/lib/exports/audit-trail";

// GET /v1/exports/audit_events: the audit trail's list, every page of it, as CSV; or, with
// format=ndjson, the whole sealed trail for the offline verifier (lib/exports/audit-trail.ts).

const { next: _next, limit: _limit, ...listFilters } = auditEventQuery.shape;

/** The list's filters: an NDJSON export takes none, since the verifier needs every event a checkpoint seals. */
const FILTERS = ["action", "actorId", "startDate", "endDate"] as const;

/** The list's filters and order (GET /v1/audit_events), without its page size and cursor, and the format. */
export const auditEventExportQuery = z
  .object({
    ...listFilters,
    format: z
      .enum(["csv", "ndjson"])
      .default("csv")
      .meta({
        description:
          "csv: the list's rows. ndjson: the whole sealed trail, events and checkpoints in order, one JSON object a " +
          "line, for `npm run audit:verify` (no filters; order does not apply).",
      }),
  })
  .refine(...rangeInOrder)
  .superRefine((query, context) => {
    if (query.format !== "ndjson") return;
    for (const filter of FILTERS)
      if (query[filter] !== undefined)
        context.addIssue({
          code: "custom",
          path: [filter],
          message:
            "must not be given with format=ndjson: the NDJSON export is the whole trail, which the verifier needs",
        });
  });
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
export function exportAuditEvents({
  query: { format, ...query },
  by,
}: {
  query: AuditEventExportQuery;
  by: Exporter;
}): Response {
  if (format === "ndjson") return exportAuditTrail({ by });
  return csvExport({
    resource: "audit_events",
    filters: query,
    by,
    header: COLUMNS,
    pages: eachPage((next) => listAuditEvents({ ...query, limit: EXPORT_PAGE_SIZE, next })),
    toRecord: (event) => COLUMNS.map((column) => event[column]),
  });
}
