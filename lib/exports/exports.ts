import { recordAuditEvent, type AuditActor } from "@/lib/audit/trail";
import { csvRecord } from "@/lib/exports/csv";
import {
  csvChunks,
  exportFileName,
  exportResponse,
  exportStream,
  scopedPages,
  type ExportChunk,
  type ExportEnd,
} from "@/lib/exports/stream";
import type { Scope } from "@/lib/tenancy";

// What every export shares: the CSV answer, and its audit record, written when the stream ends (only
// then is the row count known). A GET leaves no record by itself (lib/http/pipeline/settle.ts); an
// export does, since it carries a copy of the platform's data out of the service.

/** The audit action of every export (the export endpoints name it, so the audit log's picker lists it). */
export const EXPORT_ACTION = "export.created";
/** Rows read from the database at a time. */
export const EXPORT_PAGE_SIZE = 500;

/** Who exports, as the audit record names them (lib/http/audit-caller.ts makes one from a request). */
export type Exporter = {
  actor: AuditActor;
  scope: Scope;
  ip: string | null;
  requestId: string;
  clientRequestId: string | null;
};

/**
 * An export of `resource`: the CSV of every row `pages` yields (one page read at a time), as an
 * attachment named after the resource and the day, audited once it ends with its filters and row count.
 */
export function csvExport<Row>({
  header,
  pages,
  toRecord,
  ...rest
}: {
  resource: string;
  filters: Record<string, unknown>;
  by: Exporter;
  header: readonly string[];
  pages: AsyncIterator<Row[]>;
  toRecord: (row: Row) => readonly unknown[];
}): Response {
  return auditedExport({ ...rest, head: csvRecord(header), chunks: csvChunks(pages, toRecord) });
}

/**
 * An export of `resource` in any text format: `head`, then every chunk `chunks` yields (read within the
 * exporter's scope, one at a time), as an attachment, audited once it ends with its filters and row count.
 */
export function auditedExport({
  resource,
  filters,
  by,
  head,
  chunks,
  extension = "csv",
  contentType,
}: {
  resource: string;
  filters: Record<string, unknown>;
  by: Exporter;
  head: string;
  chunks: AsyncIterator<ExportChunk>;
  extension?: string;
  contentType?: string;
}): Response {
  const finished = ({ rowCount, complete }: ExportEnd) =>
    recordAuditEvent({
      actor: by.actor,
      actedForAccountId: by.scope.accountId,
      action: EXPORT_ACTION,
      targetId: null,
      ip: by.ip,
      status: 200,
      requestId: by.requestId,
      clientRequestId: by.clientRequestId,
      details: {
        resource,
        // As the query was read: dates as ISO strings, filters not given left out.
        filters: JSON.parse(JSON.stringify(filters)) as unknown,
        rowCount,
        // The client went away, or a read failed, before the last row.
        ...(complete ? {} : { complete: false }),
      },
    });
  const body = exportStream({ head, chunks: scopedPages(by.scope, chunks), finished });
  return exportResponse(body, exportFileName(resource.replaceAll("_", "-"), new Date(), extension), contentType);
}
