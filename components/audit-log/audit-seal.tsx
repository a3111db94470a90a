"use client";

import Link from "@/components/ui/link";
import { useEffect, useMemo } from "react";
import type { AuditEvent } from "@/components/audit-log/audit-event-parts";
import { listAuditCheckpointsEndpoint } from "@/lib/audit/endpoints";
import { shortId } from "@/lib/client/format";
import { useCursorList } from "@/lib/client/queries";

/** Where a seal links: the page that checks the chain of checkpoints. */
export const VERIFY_HREF = "/audit-log/verify";

/** The most pages of checkpoints read to name the checkpoints of older events (100 each); past them, the id shows. */
const MAX_CHECKPOINT_PAGES = 10;

/**
 * The seq of each checkpoint the shown events name. Usually one request: the newest 100 checkpoints.
 * A checkpoint newer than that read (an event sealed since) reads the list again; an older one reads
 * the next page, up to MAX_CHECKPOINT_PAGES.
 */
export function useCheckpointSeqs(
  events: readonly AuditEvent[],
  eventsReadAt: number,
): (id: string) => number | undefined {
  const list = useCursorList(listAuditCheckpointsEndpoint, { query: { limit: 100 } });
  const seqs = useMemo(() => new Map(list.items.map((checkpoint) => [checkpoint.id, checkpoint.seq])), [list.items]);
  const { query } = list;
  const unknown = events.some((event) => event.checkpointId !== null && !seqs.has(event.checkpointId));
  useEffect(() => {
    if (!unknown || query.isFetching || query.isError) return;
    // Checkpoints are written before the events that name them: a list read after the events holds every newer one.
    if (query.dataUpdatedAt < eventsReadAt) void query.refetch();
    else if (query.hasNextPage && (query.data?.pages.length ?? 0) < MAX_CHECKPOINT_PAGES) void query.fetchNextPage();
  }, [unknown, eventsReadAt, query]);
  return (id) => seqs.get(id);
}

/** An event's seal: "Sealed · checkpoint N", linked to the Verify page, or "Pending" until the sealer's next pass. */
export function SealCell({ event, seq }: { event: AuditEvent; seq: number | undefined }) {
  if (event.checkpointId === null)
    return (
      <span
        className="badge"
        title="Not sealed yet: events are sealed into a signed checkpoint within about 10 seconds"
      >
        Pending
      </span>
    );
  return (
    <Link href={VERIFY_HREF} className="nowrap" title={`Checkpoint ${event.checkpointId}: verify the chain`}>
      Sealed · {seq === undefined ? <code>{shortId(event.checkpointId)}</code> : `checkpoint ${seq}`}
    </Link>
  );
}
