"use client";

import Link from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useAccountRouter } from "@/components/account-scope";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useCan } from "@/components/me";
import { BulkBar, BulkResults, type BulkOutcome } from "@/components/information-requests/bulk-actions";
import { ExportButton } from "@/components/ui/export-button";
import { FindRequest } from "@/components/information-requests/find-request";
import {
  useAssignees,
  useRequestQueue,
  useTransfer,
  useTransferRequests,
} from "@/components/information-requests/hooks";
import { kindLabels, priorityLabels } from "@/components/information-requests/labels";
import { QueueTabs } from "@/components/information-requests/queue-tabs";
import { RequestsTable } from "@/components/information-requests/requests-table";
import { TransferDetails } from "@/components/information-requests/transfer-details";
import { DataState } from "@/components/ui/data-state";
import { Section } from "@/components/ui/details-list";
import { Field } from "@/components/ui/field";
import { FilterBar } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { ApiRequestError } from "@/lib/client/api";
import { queueQuery, sortOf, viewOf, VIEWS, type QueueView } from "@/lib/client/request-queue";
import { informationRequestKinds, informationRequestPriorities } from "@/lib/information-requests/schemas";

const FILTERS = ["kind", "priority", "startDate", "endDate"] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/**
 * Everything the queue shows lives in the URL, so a view can be bookmarked, shared and reloaded, and
 * back/forward steps through filter changes and pages: the view (`view`: mine, unassigned, overdue,
 * open, decided), `kind`, `priority`, `startDate`, `endDate`, the order (`sort=dueAt`), the cursor of the
 * page shown (`next`, as the API names it) and the cursors of the pages before it (`prev`, for "Previous
 * page"; the API's cursors only go forward). `transferId` shows one transfer's requests.
 */
export function InformationRequestList() {
  const transferId = useSearchParams().get("transferId");
  return transferId ? <TransferRequests transferId={transferId} /> : <RequestQueue />;
}

function useNavigate() {
  const router = useAccountRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  return (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(searchParams.toString());
    for (const [name, value] of Object.entries(changes)) {
      if (value) params.set(name, value);
      else params.delete(name);
    }
    const text = params.toString();
    router.push(text ? `${pathname}?${text}` : pathname, { scroll: false });
  };
}

function RequestQueue() {
  const searchParams = useSearchParams();
  const navigate = useNavigate();
  const view = viewOf(searchParams.get("view"));
  const sort = sortOf(searchParams.get("sort"));
  const filters = Object.fromEntries(FILTERS.map((name) => [name, searchParams.get(name) ?? ""])) as Filters;
  const cursor = searchParams.get("next") ?? "";
  const query = queueQuery(view, { ...filters, sort });
  const pageKey = JSON.stringify([view, sort, filters, cursor]);
  // One page at a time: the list starts at the URL's cursor and never grows ("Next page" moves the URL on).
  const list = useRequestQueue(query, cursor || undefined);
  // A filter the API refused (422) is shown under that filter, in the API's own words.
  const filterErrors =
    list.state.error instanceof ApiRequestError && list.state.error.status === 422 ? list.state.error.details : null;

  const clear = () => navigate({ kind: null, priority: null, startDate: null, endDate: null, next: null, prev: null });
  return (
    <div className="stack">
      <PageHeader
        title="Information requests"
        description="The compliance work queue: requests raised against your platform's transfers and KYC submissions."
        actions={<ExportButton path="/v1/exports/information_requests" query={query} />}
      />
      <QueueTabs current={view} />
      <FindRequest />
      <QueueFilters filters={filters} errors={filterErrors} navigate={navigate} onClear={clear} />
      {filterErrors ? (
        <div className="alert error" role="alert">
          These filters cannot be applied: correct the one marked above.
        </div>
      ) : (
        // A new view, filter, order or page starts with nothing selected and no results of an earlier action.
        <QueuePage
          key={pageKey}
          view={view}
          list={list}
          filtered={FILTERS.some((name) => filters[name] !== "")}
          onClear={clear}
        />
      )}
    </div>
  );
}

/** The page's own filters, on top of the view's: kind, priority and the creation dates. */
function QueueFilters({
  filters,
  errors,
  navigate,
  onClear,
}: {
  filters: Filters;
  errors: Record<string, string> | null;
  navigate: ReturnType<typeof useNavigate>;
  onClear: () => void;
}) {
  const applied = FILTERS.map((name) => filters[name]).join("|");
  // Back/forward changes the URL under the form: put the inputs back to what the list shows. (Not
  // by remounting the form, which would take the keyboard focus away from the control in use.)
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const values = applied.split("|");
    FILTERS.forEach((name, index) => {
      const control = formRef.current?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (control) control.value = values[index] ?? "";
    });
  }, [applied]);
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    navigate({
      ...Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? "")])),
      next: null,
      prev: null,
    });
  };
  const submitOnChange = (event: { currentTarget: HTMLSelectElement }) => event.currentTarget.form?.requestSubmit();
  return (
    <>
      <FilterBar
        label="Filter information requests"
        onSubmit={apply}
        onClear={onClear}
        filtered={FILTERS.some((name) => filters[name] !== "")}
        formRef={formRef}
        plain
      >
        <Field label="Kind" error={{ message: errors?.kind }}>
          {(control) => (
            <select {...control} name="kind" defaultValue={filters.kind} onChange={submitOnChange}>
              <option value="">All kinds</option>
              {informationRequestKinds.map((kind) => (
                <option key={kind} value={kind}>
                  {kindLabels[kind]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Priority" error={{ message: errors?.priority }}>
          {(control) => (
            <select {...control} name="priority" defaultValue={filters.priority} onChange={submitOnChange}>
              <option value="">All priorities</option>
              {informationRequestPriorities.map((priority) => (
                <option key={priority} value={priority}>
                  {priorityLabels[priority]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Created from"
          type="date"
          name="startDate"
          defaultValue={filters.startDate}
          error={{ message: errors?.startDate }}
        />
        <Field
          label="Created to"
          type="date"
          name="endDate"
          defaultValue={filters.endDate}
          error={{ message: errors?.endDate }}
        />
      </FilterBar>
      <p className="muted" style={{ margin: 0 }}>
        Dates are whole days in UTC, both included.
      </p>
    </>
  );
}

/** One page of a view: its rows, selection and bulk actions, the count and the paging. */
function QueuePage({
  view,
  list,
  filtered,
  onClear,
}: {
  view: QueueView;
  list: ReturnType<typeof useRequestQueue>;
  filtered: boolean;
  onClear: () => void;
}) {
  const searchParams = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useCan()("information_requests:write");
  const { names } = useAssignees();
  const cursor = searchParams.get("next") ?? "";
  const trail = (searchParams.get("prev") ?? "").split(".").filter(Boolean);
  const sort = sortOf(searchParams.get("sort"));
  const { items, next, state } = list;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const nextPage = (next: string) => navigate({ next, prev: cursor ? [...trail, cursor].join(".") : null });
  const previousPage = () => navigate({ next: trail.at(-1) ?? null, prev: trail.slice(0, -1).join(".") || null });
  // A cursor is only good for the order it was issued in: a new order starts at the first page.
  const toggleSort = () => navigate({ sort: sort === "dueAt" ? null : "dueAt", next: null, prev: null });
  const pageNumber = cursor ? trail.length + 2 : 1;
  const shownIds = items.map((item) => item.id);
  const picked = shownIds.filter((id) => selected.has(id));
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const updated = new Set(current);
      if (on) updated.add(id);
      else updated.delete(id);
      return updated;
    });

  return (
    <>
      {outcome && <BulkResults outcome={outcome} onDismiss={() => setOutcome(null)} />}
      <DataState
        query={state}
        isEmpty={items.length === 0 && !cursor}
        empty={<EmptyQueue view={view} filtered={filtered} onClear={onClear} />}
      >
        {list.query.data && (
          <>
            <div className="queue-toolbar">
              {canWrite && (
                <label className="select-all">
                  <input
                    type="checkbox"
                    checked={picked.length > 0 && picked.length === shownIds.length}
                    ref={(box) => {
                      if (box) box.indeterminate = picked.length > 0 && picked.length < shownIds.length;
                    }}
                    onChange={(event) => setSelected(event.currentTarget.checked ? new Set(shownIds) : new Set())}
                  />
                  Select all on this page
                </label>
              )}
              <span className="muted" data-testid="queue-count">
                {items.length} {items.length === 1 ? "request" : "requests"} shown, page {pageNumber}
                {next ? "; more on the next pages" : ""}
              </span>
              <button type="button" className="phone-sort" onClick={toggleSort} aria-pressed={sort === "dueAt"}>
                {sort === "dueAt" ? "Sorted by due date" : "Sort by due date"}
              </button>
            </div>
            {canWrite && (
              <BulkBar
                ids={picked}
                onClear={() => setSelected(new Set())}
                onDone={(done) => {
                  setSelected(new Set());
                  setOutcome(done);
                }}
              />
            )}
            <RequestsTable
              requests={items}
              caption={`${VIEWS[view].label}, page ${pageNumber}`}
              names={names}
              selection={canWrite ? { selected, toggle } : undefined}
              sort={{ sort, onToggle: toggleSort }}
            />
            <nav className="row" aria-label="Pages" style={{ justifyContent: "space-between", alignItems: "center" }}>
              <span className="muted">Page {pageNumber}</span>
              <div className="row">
                <button type="button" onClick={previousPage} disabled={!cursor}>
                  Previous page
                </button>
                <button type="button" onClick={() => next && nextPage(next)} disabled={!next}>
                  Next page
                </button>
              </div>
            </nav>
          </>
        )}
      </DataState>
    </>
  );
}

function EmptyQueue({ view, filtered, onClear }: { view: QueueView; filtered: boolean; onClear: () => void }) {
  if (filtered)
    return (
      <div className="stack" style={{ justifyItems: "center" }}>
        <span>No information requests match these filters.</span>
        <div>
          <button type="button" onClick={onClear}>
            Clear filters
          </button>
        </div>
      </div>
    );
  if (view !== "open") return <>{VIEWS[view].empty}</>;
  return (
    <>
      {VIEWS.open.empty} They appear here when compliance review raises one against a transfer or a KYC submission: see
      the <Link href="/docs">API reference</Link>.
    </>
  );
}

/** `?transferId=`: the transfer, and every request raised against it (a plain list, oldest first). */
function TransferRequests({ transferId }: { transferId: string }) {
  const transfer = useTransfer(transferId);
  const requests = useTransferRequests(transferId);
  return (
    <div className="stack">
      <PageHeader
        title="Information requests for a transfer"
        description={<code>{transferId}</code>}
        actions={<Link href="/information-requests">All information requests</Link>}
      />
      <Section id="transfer-heading" title="Transfer" className="card">
        <DataState query={transfer}>{transfer.data && <TransferDetails transfer={transfer.data} />}</DataState>
      </Section>
      <DataState
        query={requests}
        isEmpty={requests.data?.length === 0}
        empty="No information requests were raised against this transfer."
      >
        {requests.data && (
          <RequestsTable
            requests={requests.data}
            caption={`Information requests raised against transfer ${transferId}`}
          />
        )}
      </DataState>
    </div>
  );
}
