"use client";

import Link from "@/components/ui/link";
import { AuditFiltersForm, auditFilterNames, type AuditFilters } from "@/components/audit-log/audit-filters";
import { filterErrorsOf } from "@/components/ui/filter-bar";
import { CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlQuery } from "@/components/ui/url-query";
import { listAuditEventsEndpoint } from "@/lib/audit/endpoints";
import { useCursorList } from "@/lib/client/queries";

const outcomeTone = { success: "ok", failure: "danger", denied: "warn" } as const;
const actorLabel = { employee: "Employee", api_key: "API key", anonymous: "Anonymous" } as const;

/** "2026-11-22 13:00:05 UTC": the audit trail is read across time zones, so it speaks UTC. */
const utc = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");

/** Where the dashboard shows the object an event targeted, when it has a place for it. */
function targetHref(id: string): string | null {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  const places: Record<string, string> = {
    emp: `/employees/${id}`,
    ir: `/information-requests/${id}`,
    sub: `/kyc/submissions/${id}`,
    va: `/virtual-accounts#${id}`,
    acct: `/accounts#${id}`,
    key: "/api-keys",
  };
  return (prefix && places[prefix]) ?? null;
}

/** The platform's audit trail, filtered by action, actor and date (all kept in the URL). */
export function AuditLogView() {
  const url = useUrlQuery(auditFilterNames);
  const filters: AuditFilters = url.values;
  const list = useCursorList(listAuditEventsEndpoint, { query: filters });
  const withFilters = (change: AuditFilters) => url.href({ ...filters, ...change });

  return (
    <div className="stack">
      <PageHeader
        title="Audit log"
        description="Every change, sign-in and refused request on your platform: when, who, what, from where, and how it ended."
      />
      <AuditFiltersForm
        key={url.version}
        current={filters}
        serverErrors={filterErrorsOf(list.state.error)}
        onApply={url.replace}
      />
      <CursorListTable
        list={list}
        empty={url.filtered ? "No events match these filters." : "No events yet."}
        columns={[
          {
            header: "When (UTC)",
            cell: (event) => (
              <time dateTime={event.at} className="nowrap">
                {utc(event.at)}
              </time>
            ),
          },
          {
            header: "Who",
            cell: (event) => (
              <>
                {actorLabel[event.actorType]}
                {event.actorId && (
                  <div>
                    <Link
                      href={withFilters({ actorId: event.actorId })}
                      className="mono"
                      title="Show only this actor's events"
                    >
                      {event.actorId}
                    </Link>
                  </div>
                )}
                {event.actedForAccountId && event.actedForAccountId !== event.accountId && (
                  <div className="muted" title="The account this request acted for (Service-Account-Id)">
                    for <span className="mono">{event.actedForAccountId}</span>
                  </div>
                )}
              </>
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
          { header: "Target", className: "mono", cell: (event) => <Target id={event.targetId} /> },
          { header: "IP", className: "mono", cell: (event) => event.ip ?? <span className="muted">—</span> },
          {
            header: "Outcome",
            cell: (event) => <span className={`badge ${outcomeTone[event.outcome]}`}>{event.outcome}</span>,
          },
          { header: "Status", num: true, cell: (event) => event.status },
        ]}
      />
    </div>
  );
}

/** The object an event targeted, linked where the dashboard has a place for it. */
function Target({ id }: { id: string | null }) {
  if (id === null) return <span className="muted">—</span>;
  const href = targetHref(id);
  return href ? <Link href={href}>{id}</Link> : id;
}
