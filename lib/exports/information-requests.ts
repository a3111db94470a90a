import { z } from "zod";
import { rangeInOrder } from "@/lib/contract/date-range";
import { csvExport, EXPORT_PAGE_SIZE, type Exporter } from "@/lib/exports/exports";
import type { InformationRequest } from "@/lib/generated/prisma/client";
import {
  eachInformationRequestPage,
  informationRequestFilters,
  type FilterCaller,
} from "@/lib/information-requests/list";
import { listInformationRequestsQuery, presentInformationRequest } from "@/lib/information-requests/schemas";

// GET /v1/exports/information_requests: the work queue's list, every page of it, as CSV. The filters
// and the sort are the list's own (lib/information-requests/list.ts), so a filter means the same in both.

const { next: _next, limit: _limit, ...listFilters } = listInformationRequestsQuery.shape;

/** The list's filters, sort and order (GET /v1/information_requests), without its page size and cursor. */
export const informationRequestExportQuery = z.object(listFilters).refine(...rangeInOrder);
export type InformationRequestExportQuery = z.output<typeof informationRequestExportQuery>;

const COLUMNS = [
  "id",
  "accountId",
  "kind",
  "status",
  "priority",
  "assigneeId",
  "dueAt",
  "overdue",
  "createdAt",
  "updatedAt",
  "reviewerId",
  "reviewStartedAt",
  "decidedById",
  "decidedAt",
  "decisionReasonCode",
  "decisionReason",
  "transferId",
  "submissionId",
] as const;

/** A request as the API shows it, and the account it belongs to (the export may span the platform's view of one account). */
const recordOf = (row: InformationRequest) => {
  const shown: Record<string, unknown> = { ...presentInformationRequest(row), accountId: row.accountId };
  return COLUMNS.map((column) => shown[column]);
};

/**
 * The scope's information requests matching the list's filters, in its sort, as a CSV attachment read
 * a page at a time. A filter the list refuses (`assigneeId=me` from a key) is refused here, before
 * anything streams.
 */
export function exportInformationRequests({
  query,
  caller,
  by,
}: {
  query: InformationRequestExportQuery;
  caller: FilterCaller;
  by: Exporter;
}): Response {
  const where = informationRequestFilters(query, caller);
  const pages = eachInformationRequestPage(
    { sort: query.sort, order: query.order, status: query.status, overdue: query.overdue, limit: EXPORT_PAGE_SIZE },
    where,
  );
  return csvExport({
    resource: "information_requests",
    filters: query,
    by,
    header: COLUMNS,
    pages,
    toRecord: recordOf,
  });
}
