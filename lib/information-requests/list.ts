import { z } from "zod";
import { withinRange } from "@/lib/contract/date-range";
import { paginate, type Page } from "@/lib/contract/pagination";
import { DomainError } from "@/lib/errors";
import type { InformationRequest, Prisma } from "@/lib/generated/prisma/client";
import {
  openStatuses,
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
};

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

/** The rows after the cursor in (dueAt ascending, nulls last, id) order. */
function afterDueAt({ dueAt, id }: DueAtCursor): Prisma.InformationRequestWhereInput {
  if (dueAt === null) return { dueAt: null, id: { gt: id } };
  return { OR: [{ dueAt: { gt: dueAt } }, { dueAt, id: { gt: id } }, { dueAt: null }] };
}

async function pageByDueAt(
  query: InformationRequestPageQuery,
  where: Prisma.InformationRequestWhereInput,
): Promise<Page<InformationRequest>> {
  const after = query.next === undefined ? {} : afterDueAt(decodeDueAtCursor(query.next));
  const rows = await tenantDb().informationRequest.findMany({
    where: { AND: [after, where] },
    orderBy: [{ dueAt: { sort: "asc", nulls: "last" } }, { id: "asc" }],
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return { items, next: rows.length > query.limit && last ? encodeDueAtCursor(last) : null };
}
