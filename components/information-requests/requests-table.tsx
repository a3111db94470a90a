"use client";

import Link from "@/components/ui/link";
import { useMe, type Me } from "@/components/me";
import { StatusBadge } from "@/components/ui/format";
import { ListTable, type Column } from "@/components/ui/list-table";
import { shortId } from "@/lib/client/format";
import { formatAge, type QueueSort } from "@/lib/client/request-queue";
import { DueDate } from "./due-date";
import type { InformationRequest } from "./hooks";
import { kindLabels, priorityLabels } from "./labels";

/** Rows picked for a bulk action, by id. */
export type Selection = { selected: ReadonlySet<string>; toggle: (id: string, on: boolean) => void };

/** The due-date order, toggled from the Due column's heading. */
export type SortControl = { sort: QueueSort; onToggle: () => void };

/**
 * Information requests as a table: each links to its page, and to the transfer or KYC submission it
 * concerns; who works on it, how old it is and how close its deadline. With `selection`, a checkbox
 * per row; with `sort`, the Due heading orders the list by due date.
 */
export function RequestsTable({
  requests,
  caption,
  names = new Map(),
  selection,
  sort,
}: {
  requests: readonly InformationRequest[];
  caption: string;
  /** Employee names by id, for the assignee column (ids where a name is not known). */
  names?: ReadonlyMap<string, string>;
  selection?: Selection;
  sort?: SortControl;
}) {
  const me = useMe();
  const columns: (Column<InformationRequest> | false)[] = [
    !!selection && {
      header: "Select",
      heading: <span className="visually-hidden">Select</span>,
      cell: ({ id }) => <RowSelect id={id} selection={selection} />,
    },
    {
      header: "Request",
      cell: ({ id }) => (
        <Link href={`/information-requests/${encodeURIComponent(id)}`}>
          <code>{id}</code>
        </Link>
      ),
    },
    { header: "Kind", testId: "kind", cell: (request) => kindLabels[request.kind] },
    { header: "Status", testId: "status", cell: (request) => <StatusBadge status={request.status} /> },
    { header: "Priority", testId: "priority", cell: (request) => <PriorityBadge priority={request.priority} /> },
    {
      header: "Assignee",
      testId: "assignee",
      cell: ({ assigneeId }) => <Assignee id={assigneeId} me={me} names={names} />,
    },
    { header: "Concerns", cell: (request) => <Concerns request={request} /> },
    { header: "Age", testId: "age", className: "nowrap", cell: ({ createdAt }) => <Age createdAt={createdAt} /> },
    {
      header: "Due",
      testId: "due",
      heading: sort ? <SortHeading sort={sort} /> : "Due",
      cell: (request) => <DueDate request={request} />,
    },
  ];
  return (
    <ListTable
      label="Information requests"
      rows={requests}
      caption={caption}
      rowTestId="information-request-row"
      columns={columns}
    />
  );
}

function RowSelect({ id, selection }: { id: string; selection: Selection }) {
  return (
    <input
      type="checkbox"
      className="row-select"
      aria-label={`Select ${id}`}
      checked={selection.selected.has(id)}
      onChange={(event) => selection.toggle(id, event.currentTarget.checked)}
    />
  );
}

/** Who works on the request: "you", a name, or (where the name is not known) the shortened id. */
function Assignee({
  id,
  me,
  names,
}: {
  id: InformationRequest["assigneeId"];
  me: Me;
  names: ReadonlyMap<string, string>;
}) {
  if (id === null) return <span className="muted">Unassigned</span>;
  if (id === me.id) return `${me.name} (you)`;
  return names.get(id) ?? <code title={id}>{shortId(id)}</code>;
}

function Age({ createdAt }: { createdAt: InformationRequest["createdAt"] }) {
  return (
    <time className="age" dateTime={createdAt} title={`Created ${new Date(createdAt).toISOString()}`}>
      {formatAge(createdAt)}
    </time>
  );
}

function SortHeading({ sort: { sort, onToggle } }: { sort: SortControl }) {
  const byDue = sort === "dueAt";
  return (
    <button
      type="button"
      className="link sort-button"
      onClick={onToggle}
      aria-pressed={byDue}
      title={byDue ? "Sorted by due date, soonest first: click for newest first" : "Sort by due date, soonest first"}
    >
      Due <span aria-hidden="true">{byDue ? "▲" : "↕"}</span>
      <span className="visually-hidden">{byDue ? ", sorted soonest first" : ", sort soonest first"}</span>
    </button>
  );
}

const priorityTone = { low: "", normal: "", high: "warn", urgent: "danger" } as const;

function PriorityBadge({ priority }: { priority: InformationRequest["priority"] }) {
  return <span className={`badge ${priorityTone[priority]}`}>{priorityLabels[priority]}</span>;
}

/**
 * The transfer or KYC submission a request was raised against, or the account itself. Each link's
 * visible text is its whole accessible name, so a voice user can say what they see; the id is
 * shortened to fit the table, whole on hover and on the page the link opens.
 */
function Concerns({ request: { transferId, submissionId } }: { request: InformationRequest }) {
  return (
    <div style={{ display: "grid", gap: "0.2rem" }}>
      {transferId && (
        <Link href={`/information-requests?transferId=${encodeURIComponent(transferId)}`} title={transferId}>
          Transfer <code className="nowrap">{shortId(transferId)}</code>
        </Link>
      )}
      {submissionId && (
        <Link href={`/kyc/submissions/${encodeURIComponent(submissionId)}`} title={submissionId}>
          KYC submission <code className="nowrap">{shortId(submissionId)}</code>
        </Link>
      )}
      {!transferId && !submissionId && <span className="muted">Account</span>}
    </div>
  );
}
