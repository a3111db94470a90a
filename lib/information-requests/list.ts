import { z } from "zod";
import { withinRange } from "@/lib/contract/date-range";
import { paginate, type Page } from "@/lib/contract/pagination";
import { DomainError } from "@/lib/errors";
import type { InformationRequest, Prisma } from "@/lib/generated/prisma/client";
import {
  informationRequestStatuses,
  openStatuses,
  type InformationRequestStatus,
  type InformationRequestSort,
  type ListInformationRequestsQuery,
} from "@/lib/information-requests/schemas";
import { tenantDb } from "@/lib/tenancy";

// The list of information requests (the work queue) and, through the same two functions, anything else
// that must show the same requests: the CSV export reads informationRequestFilters() and
// eachInformationRequestPage() so a filter means the same thing in both.

/** The list's filters, as the list's query parses them. */
export type InformationRequestFilterQuery = Pick<
  ListInformationRequestsQuery,
  "kind" | "status" | "assigneeId" | "overdue" | "priority" | "startDate" | "endDate"
>;

/** Who asks: `assigneeId=me` is the calling employee. */
export type FilterCaller = { type: "employee" | "api_key"; id: string };

/**
 * The Prisma `where` of the list's filters (tenancy is added by tenantDb(), not here). `now` decides
 * what is overdue. `assigneeId=me` from an API key is a 422: a key is no employee, so nothing is its own.
 */
export function informationRequestFilters(
  query: InformationRequestFilterQuery,
  caller: FilterCaller,
  now = new Date(),
): Prisma.InformationRequestWhereInput {
  const { kind, status, assigneeId, overdue, priority, startDate, endDate } = query;
  const conditions: Prisma.InformationRequestWhereInput[] = [];
  if (kind) conditions.push({ kind });
  if (status) conditions.push({ status: { in: status } });
  if (priority) conditions.push({ priority: { in: priority } });
  if (assigneeId) conditions.push({ assigneeId: assigneeIdFilter(assigneeId, caller) });
  if (overdue) conditions.push({ dueAt: { lt: now }, status: { in: [...openStatuses] } });
  const createdAt = withinRange({ startDate, endDate });
  if (createdAt) conditions.push({ createdAt });
  return { AND: conditions };
}

function assigneeIdFilter(assigneeId: string, caller: FilterCaller): string | null {
  if (assigneeId === "none") return null;
  if (assigneeId !== "me") return assigneeId;
  if (caller.type !== "employee") {
    throw new DomainError("invalid", "assigneeId=me names the calling employee; an API key is not one", {
      assigneeId: "`me` is only for an employee's session; name the employee (emp_...) instead",
    });
  }
  return caller.id;
}

/** How a page is read: the list's sort, order, size and cursor. */
export type InformationRequestPageQuery = {
  sort: InformationRequestSort;
  order: "asc" | "desc";
  limit: number;
  next?: string;
  /** The filters that decide which statuses a page by due date reads (`where` applies them all anyway). */
  status?: readonly InformationRequestStatus[];
  overdue?: boolean;
};
type DueAtPageQuery = Omit<InformationRequestPageQuery, "sort" | "order">;

/**
 * One keyset page of the scope's requests matching `where`, in the query's sort. Each page starts
 * strictly after the last row of the one before, so requests created while a client pages never
 * repeat or push one out of view, and a deep page costs what the first does (no OFFSET).
 */
export async function pageInformationRequests(
  query: InformationRequestPageQuery,
  where: Prisma.InformationRequestWhereInput,
): Promise<Page<InformationRequest>> {
  if (query.sort === "createdAt") {
    return paginate(query, (args) =>
      tenantDb().informationRequest.findMany({ ...args, where: { AND: [args.where, where] } }),
    );
  }
  return pageByDueAt(query, where);
}

/** Every page of `where`'s requests in turn, for a reader of all of them (an export). */
export async function* eachInformationRequestPage(
  query: Omit<InformationRequestPageQuery, "next">,
  where: Prisma.InformationRequestWhereInput,
): AsyncGenerator<InformationRequest[]> {
  let next: string | undefined;
  do {
    const page = await pageInformationRequests({ ...query, ...(next !== undefined && { next }) }, where);
    yield page.items;
    next = page.next ?? undefined;
  } while (next !== undefined);
}

type DueAtCursor = { dueAt: Date | null; id: string };

/** base64url(JSON) of `["dueAt", dueAt or null, id]`: the sort's name, so a createdAt cursor never passes for one. */
const encodeDueAtCursor = ({ dueAt, id }: DueAtCursor) =>
  Buffer.from(JSON.stringify(["dueAt", dueAt?.toISOString() ?? null, id])).toString("base64url");

const dueAtCursorShape = z.tuple([z.literal("dueAt"), z.iso.datetime().nullable(), z.string().min(1).max(64)]);

function decodeDueAtCursor(text: string): DueAtCursor {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]+$/.test(text) ? JSON.parse(Buffer.from(text, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  const shape = dueAtCursorShape.safeParse(parsed);
  if (!shape.success) {
    throw new DomainError("bad_request", "next is not a cursor this API returned for sort=dueAt", {
      next: "invalid cursor (a cursor is only valid with the sort it was issued for)",
    });
  }
  const [, dueAt, id] = shape.data;
  return { dueAt: dueAt === null ? null : new Date(dueAt), id };
}

/**
 * The statuses a page by due date reads one at a time: the query's own (with `overdue`, the open ones
 * among them), or all of them. Each status is an index range already in due order
 * ([accountId, status, dueAt, id] and [accountId, assigneeId, status, dueAt, id]), so a page costs a
 * few short range reads however many decided requests lie between the open ones; reading `status IN
 * (...)` in one statement would instead sort every match, or walk past every decided row in due order.
 */
function statusesOf(query: DueAtPageQuery): readonly InformationRequestStatus[] {
  const wanted = query.status ?? informationRequestStatuses;
  return query.overdue ? wanted.filter((status) => openStatuses.includes(status)) : wanted;
}

/** The rows with a due date after the cursor, in (dueAt, id) order: a range from the cursor's dueAt on. */
function dueAfter(cursor: { dueAt: Date; id: string } | null): Prisma.InformationRequestWhereInput {
  if (cursor === null) return { dueAt: { not: null } };
  const { dueAt, id } = cursor;
  return { dueAt: { gte: dueAt }, OR: [{ dueAt: { gt: dueAt } }, { id: { gt: id } }] };
}

/** The rows without a due date after the cursor (they come last), in id order. */
function undatedAfter(cursor: DueAtCursor | null): Prisma.InformationRequestWhereInput {
  return cursor?.dueAt === null ? { dueAt: null, id: { gt: cursor.id } } : { dueAt: null };
}

const byDueThenId = (a: InformationRequest, b: InformationRequest) =>
  (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Up to `take` rows of each status matching `where` and `after`, merged into (dueAt nulls last, id) order. */
async function readByStatus(
  statuses: readonly InformationRequestStatus[],
  where: Prisma.InformationRequestWhereInput,
  after: Prisma.InformationRequestWhereInput,
  take: number,
): Promise<InformationRequest[]> {
  const reads = await Promise.all(
    statuses.map((status) =>
      tenantDb().informationRequest.findMany({
        where: { AND: [{ status }, after, where] },
        orderBy: [{ dueAt: "asc" }, { id: "asc" }],
        take,
      }),
    ),
  );
  return reads.flat().sort(byDueThenId).slice(0, take);
}

async function pageByDueAt(query: DueAtPageQuery, where: Prisma.InformationRequestWhereInput) {
  const cursor = query.next === undefined ? null : decodeDueAtCursor(query.next);
  const statuses = statusesOf(query);
  const take = query.limit + 1;
  // A cursor among the undated rows (they come last) is past every dated one.
  const dated =
    cursor?.dueAt === null
      ? []
      : await readByStatus(statuses, where, dueAfter(cursor && { dueAt: cursor.dueAt, id: cursor.id }), take);
  // An overdue request has a due date: no undated reads for the "Overdue" view.
  const rows =
    dated.length < take && !query.overdue
      ? [...dated, ...(await readByStatus(statuses, where, undatedAfter(cursor), take - dated.length))]
      : dated;
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return { items, next: rows.length > query.limit && last ? encodeDueAtCursor(last) : null };
}
