import { exportAuditEventsEndpoint } from "@/lib/exports/endpoints";
import { exportAuditEvents } from "@/lib/exports/audit-events";
import { auditCallerOf } from "@/lib/http/audit-caller";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the audit trail as a CSV attachment with the list's filters, or sealed as NDJSON; audited with its row count when it ends.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(exportAuditEventsEndpoint, (context) =>
    exportAuditEvents({ query: context.query, by: auditCallerOf(context) }),
  ),
});
