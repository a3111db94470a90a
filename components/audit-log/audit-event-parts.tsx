"use client";

import Link from "@/components/ui/link";
import { useMemo } from "react";
import { useEmployees } from "@/components/employees/use-employees";
import { useCan } from "@/components/me";
import { DetailsList } from "@/components/ui/details-list";
import { CopyButton } from "@/components/ui/format";
import { listApiKeysEndpoint } from "@/lib/api-keys/endpoints";
import type { listAuditEventsEndpoint } from "@/lib/audit/endpoints";
import { shortId } from "@/lib/client/format";
import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";

export type AuditEvent = ResponseOf<typeof listAuditEventsEndpoint>["items"][number];

/** Who an actor id is, as people know them: an employee's name (and page), a key's name or prefix. */
export type Actor = { name: string; href: string };

/**
 * The names of the employees and keys the audit log mentions, read once for the whole page (two
 * lists, never a request per row), each only where the reader's role may read that list. An id
 * neither list holds (another account's key, a deleted one) shows as the id.
 */
export function useActorNames(): (id: string) => Actor | undefined {
  const can = useCan();
  const employees = useEmployees({ enabled: can("employees:read") });
  const keys = useApiQuery(listApiKeysEndpoint, { enabled: can("api_keys:read") });
  return useMemo(() => {
    const names = new Map<string, Actor>();
    for (const employee of employees.data ?? [])
      names.set(employee.id, { name: employee.name, href: `/employees/${employee.id}` });
    for (const key of keys.data ?? []) names.set(key.id, { name: key.name ?? `${key.prefix}…`, href: "/api-keys" });
    return (id: string) => names.get(id);
  }, [employees.data, keys.data]);
}

const actorLabel = { employee: "Employee", api_key: "API key", anonymous: "Anonymous" } as const;

/** The "Who" cell: the actor by name, linked to their page, and a link to only their events. */
export function ActorCell({
  event,
  actor,
  onlyTheirs,
}: {
  event: AuditEvent;
  actor: Actor | undefined;
  /** The audit log filtered to this actor's events. */
  onlyTheirs: string;
}) {
  if (!event.actorId) return <span className="muted">{actorLabel[event.actorType]}</span>;
  const name = actor?.name ?? shortId(event.actorId);
  return (
    <div className="audit-actor">
      <div>
        {actor ? (
          <Link href={actor.href} title={event.actorId}>
            {name}
          </Link>
        ) : (
          <code title={event.actorId}>{name}</code>
        )}{" "}
        <Link href={onlyTheirs} className="small" aria-label={`Filter: only the events of ${name}`}>
          Filter
        </Link>
      </div>
      <div className="muted small">
        {actorLabel[event.actorType]}
        {event.actedForAccountId && event.actedForAccountId !== event.accountId && (
          <span title={`Acted for the account ${event.actedForAccountId} (Service-Account-Id)`}>
            {" "}
            for <code>{shortId(event.actedForAccountId)}</code>
          </span>
        )}
      </div>
    </div>
  );
}

/** Where the dashboard shows the object an event targeted, when it has a place for it. */
export function targetHref(id: string): string | null {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  const places: Record<string, string> = {
    emp: `/employees/${id}`,
    ir: `/information-requests/${id}`,
    sub: `/kyc/submissions/${id}`,
    va: `/virtual-accounts#${id}`,
    acct: `/accounts#${id}`,
    key: "/api-keys",
    rcp: "/recipients",
    tr: `/information-requests?transferId=${id}`,
    we: `/webhooks/${id}`,
  };
  return (prefix && places[prefix]) ?? null;
}

/** The object an event targeted, shortened, linked where the dashboard has a place for it (the whole id on hover). */
export function TargetCell({ id }: { id: string | null }) {
  if (id === null) return <span className="muted">—</span>;
  const href = targetHref(id);
  const short = <code>{shortId(id)}</code>;
  return href ? (
    <Link href={href} title={id} className="nowrap">
      {short}
    </Link>
  ) : (
    <span title={id} className="nowrap">
      {short}
    </span>
  );
}

/** An id in full, with a copy button: the expanded record's ids. */
function FullId({ id }: { id: string | null }) {
  if (!id) return <span className="muted">—</span>;
  return (
    <span className="short-id">
      <code>{id}</code>
      <CopyButton text={id} accessibleName={`Copy ${id}`} icon />
    </span>
  );
}

/** A record in full, under its row: every id, where it came from, and what changed (`details`). */
export function AuditEventDetails({ event, actor }: { event: AuditEvent; actor: Actor | undefined }) {
  return (
    <div className="audit-details" data-testid="audit-event-details">
      <DetailsList
        items={[
          { term: "Event", value: <FullId id={event.id} /> },
          {
            term: "Actor",
            value: (
              <>
                {actor?.name && <>{actor.name} · </>}
                {actorLabel[event.actorType]} <FullId id={event.actorId} />
              </>
            ),
          },
          { term: "Action", value: <code>{event.action}</code> },
          { term: "Target", value: <FullId id={event.targetId} /> },
          { term: "Outcome", value: `${event.outcome} (HTTP ${event.status})` },
          { term: "Account", value: <FullId id={event.accountId} /> },
          { term: "Acted for", value: <FullId id={event.actedForAccountId} /> },
          { term: "IP address", value: event.ip ? <code>{event.ip}</code> : <span className="muted">—</span> },
          { term: "Request id", value: <FullId id={event.requestId} /> },
          event.clientRequestId !== null && { term: "Client request id", value: <code>{event.clientRequestId}</code> },
          {
            term: "Details",
            value: event.details ? (
              <pre className="audit-json">{JSON.stringify(event.details, null, 2)}</pre>
            ) : (
              <span className="muted">None</span>
            ),
          },
        ]}
      />
    </div>
  );
}
