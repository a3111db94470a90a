"use client";

import Link from "@/components/ui/link";
import { useState } from "react";
import {
  ActorCell,
  AuditEventDetails,
  TargetCell,
  useActorNames,
  type Actor,
  type AuditEvent,
} from "@/components/audit-log/audit-event-parts";
import { AuditFiltersForm, auditFilterNames, type AuditFilters } from "@/components/audit-log/audit-filters";
import { SealCell, useCheckpointSeqs, VERIFY_HREF } from "@/components/audit-log/audit-seal";
import { filterErrorsOf } from "@/components/ui/filter-bar";
import { ExportButton } from "@/components/ui/export-button";
import { DateTime } from "@/components/ui/format";
import { CursorListTable, type Column } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlQuery } from "@/components/ui/url-query";
import { listAuditEventsEndpoint } from "@/lib/audit/endpoints";
import { useCursorList } from "@/lib/client/queries";

const outcomeTone = { success: "ok", failure: "danger", denied: "warn" } as const;

/** While an event shown waits for its seal, the list is read again this often (the sealer passes every 5 s). */
const PENDING_REFRESH_MS = 2_000;
const awaitingSeal = (events: readonly AuditEvent[]) =>
  events.some((event) => event.checkpointId === null) && PENDING_REFRESH_MS;

/** Which rows have their whole record unfolded, and a switch for one row. */
function useExpandedRows() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const now = new Set(was);
      if (!now.delete(id)) now.add(id);
      return now;
    });
  return { open, toggle };
}

/** The page's title and what it holds, with the exports (filtered CSV, whole NDJSON) and Verify. */
function AuditLogHeader({ filters }: { filters: AuditFilters }) {
  return (
    <PageHeader
      title="Audit log"
      description={
        <>
          Every change, sign-in and refused request on your platform: when, who, what, from where, and how it ended.
          Each event is sealed into a signed checkpoint within seconds: Verify checks the chain of checkpoints, and
          Export NDJSON downloads the whole trail for the offline verifier (<code>npm run audit:verify</code>).
        </>
      }
      actions={
        <>
          <ExportButton path="/v1/exports/audit_events" query={filters} />
          <ExportButton path="/v1/exports/audit_events" query={{ format: "ndjson" }} format={NDJSON} />
          <Link href={VERIFY_HREF} className="button">
            Verify
          </Link>
        </>
      }
    />
  );
}

/** The table's columns; the actor and action cells link to the list narrowed to them. */
function auditColumns({
  actorOf,
  seqOf,
  withFilters,
  open,
  toggle,
}: {
  actorOf: (id: string) => Actor | undefined;
  seqOf: (id: string) => number | undefined;
  withFilters: (change: AuditFilters) => string;
  open: ReadonlySet<string>;
  toggle: (id: string) => void;
}): Column<AuditEvent>[] {
  return [
    { header: "When", cell: (event) => <DateTime value={event.at} /> },
    {
      header: "Who",
      cell: (event) => (
        <ActorCell
          event={event}
          actor={event.actorId ? actorOf(event.actorId) : undefined}
          onlyTheirs={withFilters({ actorId: event.actorId ?? undefined })}
        />
      ),
    },
    {
      header: "Action",
      cell: (event) => (
        <Link href={withFilters({ action: event.action })} className="mono" title="Show only this action">
          {event.action}
        </Link>
      ),
    },
    { header: "Target", cell: (event) => <TargetCell id={event.targetId} /> },
    { header: "Outcome", className: "nowrap", cell: (event) => <Outcome event={event} /> },
    {
      header: "Seal",
      testId: "audit-event-seal",
      cell: (event) => <SealCell event={event} seq={event.checkpointId ? seqOf(event.checkpointId) : undefined} />,
    },
    {
      header: "Record",
      heading: <span className="visually-hidden">Record</span>,
      cell: (event) => (
        <button
          type="button"
          className="small"
          aria-expanded={open.has(event.id)}
          aria-controls={open.has(event.id) ? `details-${event.id}` : undefined}
          aria-label={`Details of ${event.action} at ${event.at}`}
          onClick={() => toggle(event.id)}
        >
          Details
        </button>
      ),
    },
  ];
}

/**
 * The platform's audit trail, filtered by action, actor and date (all kept in the URL): actors by
 * name, each row opening to the whole record. `actions`: every action a record can carry, for the picker.
 */
export function AuditLogView({ actions }: { actions: readonly string[] }) {
  const url = useUrlQuery(auditFilterNames);
  const filters: AuditFilters = url.values;
  const list = useCursorList(listAuditEventsEndpoint, { query: filters, refetchInterval: awaitingSeal });
  const seqOf = useCheckpointSeqs(list.items, list.query.dataUpdatedAt);
  const withFilters = (change: AuditFilters) => url.href({ ...filters, ...change });
  const actorOf = useActorNames();
  const { open, toggle } = useExpandedRows();

  return (
    <div className="stack">
      <AuditLogHeader filters={filters} />
      <AuditFiltersForm
        key={url.version}
        current={filters}
        serverErrors={filterErrorsOf(list.state.error)}
        onApply={url.replace}
        actions={actions}
      />
      <CursorListTable
        label="Audit events"
        caption="Audit events, newest first"
        list={list}
        empty={
          url.filtered
            ? "No events match these filters."
            : "No events yet. Every change made here or through the API is recorded on this page."
        }
        rowTestId="audit-event-row"
        detail={(event) =>
          open.has(event.id) && (
            <div id={`details-${event.id}`}>
              <AuditEventDetails event={event} actor={event.actorId ? actorOf(event.actorId) : undefined} />
            </div>
          )
        }
        columns={auditColumns({ actorOf, seqOf, withFilters, open, toggle })}
      />
    </div>
  );
}

const NDJSON = { label: "NDJSON", accept: "application/x-ndjson", extension: "ndjson" };

/** How a request ended: the outcome, and its HTTP status beside it. */
function Outcome({ event }: { event: AuditEvent }) {
  return (
    <>
      <span className={`badge ${outcomeTone[event.outcome]}`}>{event.outcome}</span>{" "}
      <span className="muted" title="HTTP status">
        {event.status}
      </span>
    </>
  );
}
