"use client";

import { DateTime } from "@/components/ui/format";
import { useHydrated } from "@/components/use-hydrated";

const isSameLocalDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/**
 * When a request is due, and whether that is now a problem: "Overdue" in red, "Due today" in amber,
 * each said in words beside the date, never by colour alone. A decided request is no longer due.
 */
export function DueDate({ dueAt, overdue, open }: { dueAt: string | null; overdue: boolean; open: boolean }) {
  const hydrated = useHydrated();
  if (!dueAt) return <span className="muted">No deadline</span>;
  // "Today" is the reader's day, known only once React runs in the browser.
  const dueToday = open && !overdue && hydrated && isSameLocalDay(new Date(dueAt), new Date());
  return (
    <span className="row" style={{ gap: "0.4rem" }} data-testid="due-date">
      <DateTime value={dueAt} />
      {open && overdue && <span className="badge danger">Overdue</span>}
      {dueToday && <span className="badge warn">Due today</span>}
    </span>
  );
}
