"use client";

import { DateTime } from "@/components/ui/format";
import { useHydrated } from "@/components/use-hydrated";
import { dueStateOf } from "@/lib/client/request-queue";
import type { InformationRequestStatus } from "@/lib/information-requests/schemas";

type Due = { dueAt: string | null; overdue: boolean; status: InformationRequestStatus };

/**
 * When a request is due, and whether that is now a problem, in the queue and on the request's page
 * alike: "Overdue" in red, "Due today" in amber, each said in words beside the date, never by colour
 * alone. A decided request is no longer due: its date is muted.
 */
export function DueDate({ request }: { request: Due }) {
  const hydrated = useHydrated();
  const state = dueStateOf(request);
  if (state === "none" || !request.dueAt) return <span className="muted">No SLA</span>;
  return (
    <span className="due" data-testid="due-date">
      {state === "overdue" && <span className="badge danger">Overdue</span>}
      {/* "Today" is the reader's day, known only once React runs in the browser. */}
      {state === "today" && hydrated && <span className="badge warn">Due today</span>}
      <span className={state === "closed" ? "muted" : undefined}>
        <DateTime value={request.dueAt} />
      </span>
    </span>
  );
}
