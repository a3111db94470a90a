// The information-request work queue as the dashboard shows it: its views (each a URL and a set of
// list filters), how old a request is and how close its deadline. Pure, so it is tested on its own.

import type { InformationRequestStatus } from "@/lib/information-requests/schemas";

export const QUEUE_VIEWS = ["mine", "unassigned", "overdue", "open", "decided"] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

/** The view a page without `?view=` shows: the whole open queue, as the list showed before there were views. */
export const DEFAULT_VIEW: QueueView = "open";

export const OPEN_STATUSES = ["requested", "on_review"] as const satisfies readonly InformationRequestStatus[];
export const DECIDED_STATUSES = [
  "approved",
  "rejected",
  "expired",
] as const satisfies readonly InformationRequestStatus[];

type ViewSpec = {
  label: string;
  /** What the empty view says. */
  empty: string;
  filters: { status?: readonly InformationRequestStatus[]; assigneeId?: "me" | "none"; overdue?: "true" };
};

export const VIEWS: Record<QueueView, ViewSpec> = {
  mine: {
    label: "Assigned to me",
    empty: "Nothing assigned to you. Take a request from “Unassigned”.",
    filters: { assigneeId: "me", status: OPEN_STATUSES },
  },
  unassigned: {
    label: "Unassigned",
    empty: "Every open request has someone working on it.",
    filters: { assigneeId: "none", status: OPEN_STATUSES },
  },
  overdue: {
    label: "Overdue",
    empty: "Nothing is overdue.",
    // The API counts only open requests as overdue.
    filters: { overdue: "true" },
  },
  open: {
    label: "All open",
    empty: "No open information requests.",
    filters: { status: OPEN_STATUSES },
  },
  decided: {
    label: "Decided",
    empty: "Nothing has been decided yet.",
    filters: { status: DECIDED_STATUSES },
  },
};

/** `?view=` as a view; anything else (or nothing) is the default view. */
export function viewOf(value: string | null | undefined): QueueView {
  return QUEUE_VIEWS.find((view) => view === value) ?? DEFAULT_VIEW;
}

export const SORTS = ["createdAt", "dueAt"] as const;
export type QueueSort = (typeof SORTS)[number];

/** `?sort=` as the API's sort; the API's default (newest first) otherwise. */
export const sortOf = (value: string | null | undefined): QueueSort => (value === "dueAt" ? "dueAt" : "createdAt");

/** The list query of a view with the page's own filters (kind, dates, priority) and sort. */
export function queueQuery(
  view: QueueView,
  { sort, ...filters }: { sort: QueueSort } & Record<string, string>,
): Record<string, string | readonly string[]> {
  const own = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ""));
  return { ...own, ...VIEWS[view].filters, ...(sort === "dueAt" ? { sort } : {}) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago `createdAt` was, in its largest whole unit: "3 d", "5 h", "12 min", "< 1 min". */
export function formatAge(createdAt: string, now: Date = new Date()): string {
  const elapsed = Math.max(0, now.getTime() - new Date(createdAt).getTime());
  if (elapsed >= DAY) return `${Math.floor(elapsed / DAY)} d`;
  if (elapsed >= HOUR) return `${Math.floor(elapsed / HOUR)} h`;
  if (elapsed >= MINUTE) return `${Math.floor(elapsed / MINUTE)} min`;
  return "< 1 min";
}

export type DueState = "none" | "overdue" | "today" | "later" | "closed";

/**
 * Where a request stands against its deadline: overdue (the API's own `overdue`: passed while still
 * open), due later today in the reader's zone, later, closed (decided before or after it), or none (no SLA).
 */
export function dueStateOf(
  request: { dueAt: string | null; overdue: boolean; status: InformationRequestStatus },
  now: Date = new Date(),
): DueState {
  if (!request.dueAt) return "none";
  if (request.overdue) return "overdue";
  if (!(OPEN_STATUSES as readonly string[]).includes(request.status)) return "closed";
  const due = new Date(request.dueAt);
  if (due.getTime() <= now.getTime()) return "overdue";
  return due.toDateString() === now.toDateString() ? "today" : "later";
}
