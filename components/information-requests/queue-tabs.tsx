"use client";

import { useSearchParams } from "next/navigation";
import Link from "@/components/ui/link";
import { QUEUE_VIEWS, VIEWS, type QueueView } from "@/lib/client/request-queue";

/** What a new view keeps of the page's address: the page's own filters and the order, not the page. */
const KEPT = ["kind", "priority", "startDate", "endDate", "sort"];

/**
 * The queue's views as links (each its own address, so the browser's back, a bookmark and "open in a
 * new tab" work), the current one marked for screen readers with aria-current.
 */
export function QueueTabs({ current }: { current: QueueView }) {
  const searchParams = useSearchParams();
  const hrefOf = (view: QueueView) => {
    const params = new URLSearchParams();
    params.set("view", view);
    for (const name of KEPT) {
      const value = searchParams.get(name);
      if (value) params.set(name, value);
    }
    return `/information-requests?${params.toString()}`;
  };
  return (
    <nav aria-label="Queue views" className="queue-tabs">
      <ul>
        {QUEUE_VIEWS.map((view) => (
          <li key={view}>
            <Link href={hrefOf(view)} aria-current={view === current ? "page" : undefined}>
              {VIEWS[view].label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
