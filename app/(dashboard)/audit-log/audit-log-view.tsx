"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { z } from "zod";
import { AuditFiltersForm, auditFilterNames, type AuditFilters } from "@/components/audit-log/audit-filters";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";
import type { auditEventSchema } from "@/lib/audit/schemas";
import { ApiRequestError, queryString } from "@/lib/client/api";

type AuditEvent = z.output<typeof auditEventSchema>;

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
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = Object.fromEntries(auditFilterNames.map((name) => [name, searchParams.get(name) ?? undefined])) as AuditFilters;
  const { query, items, state } = useCursorList<AuditEvent>("/v1/audit_events", filters);
  const serverErrors = state.error instanceof ApiRequestError && state.error.status === 422 ? state.error.details : {};
  const filtered = auditFilterNames.some((name) => filters[name]);
  const withFilters = (change: AuditFilters) => `${pathname}${queryString({ ...filters, ...change })}`;

  return (
    <div className="stack">
      <PageHeader
        title="Audit log"
        description="Every change, sign-in and refused request on your platform: when, who, what, from where, and how it ended."
      />
      <AuditFiltersForm
        // Remounts when the URL changes (back/forward, a link), so the form shows the filters in effect.
        key={searchParams.toString()}
        current={filters}
        serverErrors={serverErrors}
        onApply={(next) => router.replace(`${pathname}${queryString(next)}`)}
      />
      <DataState query={state} isEmpty={items.length === 0} empty={filtered ? "No events match these filters." : "No events yet."}>
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((event) => (
                <tr key={event.id}>
                  <td data-label="When (UTC)">
                    <time dateTime={event.at} className="nowrap">
                      {utc(event.at)}
                    </time>
                  </td>
                  <td data-label="Who">
                    {actorLabel[event.actorType]}
                    {event.actorId && (
                      <div>
                        <Link href={withFilters({ actorId: event.actorId })} className="mono" title="Show only this actor's events">
                          {event.actorId}
                        </Link>
                      </div>
                    )}
                    {event.actedForAccountId && event.actedForAccountId !== event.accountId && (
                      <div className="muted" title="The account this request acted for (Service-Account-Id)">
                        for <span className="mono">{event.actedForAccountId}</span>
                      </div>
                    )}
                  </td>
                  <td data-label="Action">
                    <Link href={withFilters({ action: event.action })} className="mono" title="Show only this action">
                      {event.action}
                    </Link>
                  </td>
                  <td data-label="Target" className="mono">
                    {event.targetId === null ? (
                      <span className="muted">—</span>
                    ) : targetHref(event.targetId) ? (
                      <Link href={targetHref(event.targetId)!}>{event.targetId}</Link>
                    ) : (
                      event.targetId
                    )}
                  </td>
                  <td data-label="IP" className="mono">{event.ip ?? <span className="muted">—</span>}</td>
                  <td data-label="Outcome">
                    <span className={`badge ${outcomeTone[event.outcome]}`}>{event.outcome}</span>
                  </td>
                  <td data-label="Status" className="num">{event.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore query={query} />
      </DataState>
    </div>
  );
}
