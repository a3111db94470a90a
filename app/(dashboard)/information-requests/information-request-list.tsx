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
  const formRef = useFiltersFollowUrl(filters);
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    navigate({
      ...Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? "")])),
      next: null,
      prev: null,
    });
  };
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
        <FilterFields filters={filters} errors={errors} />
      </FilterBar>
      <p className="muted" style={{ margin: 0 }}>
        Dates are whole days in UTC, both included.
      </p>
    </>
  );
}

/** The four filters, each showing the API's refusal of it. */
function FilterFields({ filters, errors }: { filters: Filters; errors: Record<string, string> | null }) {
  return (
    <>
      <SelectFilter
        label="Kind"
        name="kind"
        value={filters.kind}
        error={errors?.kind}
        all="All kinds"
        options={informationRequestKinds}
        labels={kindLabels}
      />
      <SelectFilter
        label="Priority"
        name="priority"
        value={filters.priority}
        error={errors?.priority}
        all="All priorities"
        options={informationRequestPriorities}
        labels={priorityLabels}
      />
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
    </>
  );
}

/**
 * Back/forward changes the URL under the form: put the inputs back to what the list shows. (Not
 * by remounting the form, which would take the keyboard focus away from the control in use.)
 */
function useFiltersFollowUrl(filters: Filters) {
  const applied = FILTERS.map((name) => filters[name]).join("|");
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const values = applied.split("|");
    FILTERS.forEach((name, index) => {
      const control = formRef.current?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (control) control.value = values[index] ?? "";
    });
  }, [applied]);
  return formRef;
}

const submitOnChange = (event: { currentTarget: HTMLSelectElement }) => event.currentTarget.form?.requestSubmit();

/** A filter picked from a list ("" for all), applied as soon as it changes. */
function SelectFilter<V extends string>({
  label,
  name,
  value,
  error,
  all,
  options,
  labels,
}: {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  all: string;
  options: readonly V[];
  labels: Record<V, string>;
}) {
  return (
    <Field label={label} error={{ message: error }}>
      {(control) => (
        <select {...control} name={name} defaultValue={value} onChange={submitOnChange}>
          <option value="">{all}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </Field>
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
  const canWrite = useCan()("information_requests:write");
  const { names } = useAssignees();
  const paging = useQueuePaging();
  const { cursor, sort, pageNumber, toggleSort } = paging;
  const { items, next, state } = list;
  const { selected, setSelected, toggle, outcome, setOutcome, finish } = useBulkSelection();
  const shownIds = items.map((item) => item.id);
  const picked = shownIds.filter((id) => selected.has(id));

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
            <QueueToolbar
              paging={paging}
              shownIds={shownIds}
              picked={picked}
              next={next}
              onSelect={canWrite ? setSelected : undefined}
            />
            {canWrite && <BulkBar ids={picked} onClear={() => setSelected(new Set())} onDone={finish} />}
            <RequestsTable
              requests={items}
              caption={`${VIEWS[view].label}, page ${pageNumber}`}
              names={names}
              selection={canWrite ? { selected, toggle } : undefined}
              sort={{ sort, onToggle: toggleSort }}
            />
            <PageNav paging={paging} next={next} />
          </>
        )}
      </DataState>
    </>
  );
}

type Paging = ReturnType<typeof useQueuePaging>;

/** The page shown and the way to the others, read from and moved on in the URL. */
function useQueuePaging() {
  const searchParams = useSearchParams();
  const navigate = useNavigate();
  const cursor = searchParams.get("next") ?? "";
  const trail = (searchParams.get("prev") ?? "").split(".").filter(Boolean);
  const sort = sortOf(searchParams.get("sort"));
  return {
    cursor,
    sort,
    pageNumber: cursor ? trail.length + 2 : 1,
    nextPage: (next: string) => navigate({ next, prev: cursor ? [...trail, cursor].join(".") : null }),
    previousPage: () => navigate({ next: trail.at(-1) ?? null, prev: trail.slice(0, -1).join(".") || null }),
    // A cursor is only good for the order it was issued in: a new order starts at the first page.
    toggleSort: () => navigate({ sort: sort === "dueAt" ? null : "dueAt", next: null, prev: null }),
  };
}

/** The requests picked for a bulk action, by id, and what the last bulk action did (which also ends the selection). */
function useBulkSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const updated = new Set(current);
      if (on) updated.add(id);
      else updated.delete(id);
      return updated;
    });
  const finish = (done: BulkOutcome) => {
    setSelected(new Set());
    setOutcome(done);
  };
  return { selected, setSelected, toggle, outcome, setOutcome, finish };
}

/** Above the table: "Select all" (for those who may act on the rows), the count, and the due-date order for phones. */
function QueueToolbar({
  paging: { pageNumber, sort, toggleSort },
  shownIds,
  picked,
  next,
  onSelect,
}: {
  paging: Paging;
  shownIds: string[];
  picked: string[];
  next: ReturnType<typeof useRequestQueue>["next"];
  onSelect: ((selected: ReadonlySet<string>) => void) | undefined;
}) {
  return (
    <div className="queue-toolbar">
      {onSelect && (
        <label className="select-all">
          <input
            type="checkbox"
            checked={picked.length > 0 && picked.length === shownIds.length}
            ref={(box) => {
              if (box) box.indeterminate = picked.length > 0 && picked.length < shownIds.length;
            }}
            onChange={(event) => onSelect(event.currentTarget.checked ? new Set(shownIds) : new Set())}
          />
          Select all on this page
        </label>
      )}
      <span className="muted" data-testid="queue-count">
        {shownIds.length} {shownIds.length === 1 ? "request" : "requests"} shown, page {pageNumber}
        {next ? "; more on the next pages" : ""}
      </span>
      <button type="button" className="phone-sort" onClick={toggleSort} aria-pressed={sort === "dueAt"}>
        {sort === "dueAt" ? "Sorted by due date" : "Sort by due date"}
      </button>
    </div>
  );
}

function PageNav({
  paging: { pageNumber, cursor, previousPage, nextPage },
  next,
}: {
  paging: Paging;
  next: ReturnType<typeof useRequestQueue>["next"];
}) {
  return (
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
