import { endpointGroup } from "@/lib/contract/endpoint";
import { auditEventExportQuery } from "@/lib/exports/audit-events";
import { EXPORT_ACTION } from "@/lib/exports/exports";
import { informationRequestExportQuery } from "@/lib/exports/information-requests";

const define = endpointGroup({ tag: "Exports", auth: "any" });

const CSV = ["text/csv"] as const;

export const exportAuditEventsEndpoint = define("GET /v1/exports/audit_events", {
  summary: "The audit trail as CSV, or sealed as NDJSON",
  description:
    "Every audit event GET /v1/audit_events would list with the same filters, as one CSV file (RFC 4180, UTF-8, " +
    "a header row; a cell that begins with =, +, -, @, tab or CR is prefixed with '). With `format=ndjson` (no " +
    "filters), the platform's whole trail as application/x-ndjson, one JSON object a line: a header " +
    '`{"type":"export","format":"audit-ndjson/1",...}`; for each checkpoint in seq order its events ' +
    '(`{"type":"event","event":...}`, in (at, id) order) then `{"type":"checkpoint","checkpoint":...,"leaves":[...]}`' +
    " (the hex leaf hashes it sealed); then the events not yet sealed. `npm run audit:verify` checks it offline. " +
    "Streamed; the export is itself audited (`export.created`, with its filters and row count).",
  permission: "audit_log:read",
  platformWide: true,
  query: auditEventExportQuery,
  produces: [...CSV, "application/x-ndjson"],
  action: EXPORT_ACTION,
});

export const exportInformationRequestsEndpoint = define("GET /v1/exports/information_requests", {
  summary: "Information requests as CSV",
  description:
    "Every information request GET /v1/information_requests would list with the same filters and sort, as one CSV " +
    "file (RFC 4180, UTF-8, a header row; a cell that begins with =, +, -, @, tab or CR is prefixed with '). " +
    "Streamed; the export is itself audited (`export.created`, with its filters and row count).",
  permission: "information_requests:read",
  query: informationRequestExportQuery,
  produces: CSV,
  action: EXPORT_ACTION,
});
