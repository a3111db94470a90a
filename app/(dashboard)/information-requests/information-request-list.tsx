"use client";

import Link from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useAccountRouter } from "@/components/account-scope";
import { useEffect, useRef, type FormEvent } from "react";
import { kindLabels, statusLabels, useTransfer, useTransferRequests } from "@/components/information-requests/hooks";
import { RequestsTable } from "@/components/information-requests/requests-table";
import { TransferDetails } from "@/components/information-requests/transfer-details";
import { DataState } from "@/components/ui/data-state";
import { Section } from "@/components/ui/details-list";
import { Field } from "@/components/ui/field";
import { FilterBar } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { ApiRequestError } from "@/lib/client/api";
import { useCursorList } from "@/lib/client/queries";
import { listInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { informationRequestKinds, informationRequestStatuses } from "@/lib/information-requests/schemas";

const FILTERS = ["status", "kind", "startDate", "endDate"] as const;

/**
 * Everything the list shows lives in the URL, so a view can be bookmarked, shared and reloaded, and
 * back/forward steps through filter changes and pages: `status`, `kind`, `startDate`, `endDate`, the cursor of
 * the page shown (`next`, as the API names it) and the cursors of the pages before it (`prev`, for
 * "Previous page"; the API's cursors only go forward). `transferId` shows one transfer's requests.
 */
export function InformationRequestList() {
  const transferId = useSearchParams().get("transferId");
  return transferId ? <TransferRequests transferId={transferId} /> : <FilteredRequests />;
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

function FilteredRequests() {
  const searchParams = useSearchParams();
  const navigate = useNavigate();
  const filters = Object.fromEntries(FILTERS.map((name) => [name, searchParams.get(name) ?? ""])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const cursor = searchParams.get("next") ?? "";
  const trail = (searchParams.get("prev") ?? "").split(".").filter(Boolean);
  const filtered = FILTERS.some((name) => filters[name] !== "");
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

  // One page at a time: the list starts at the URL's cursor and never grows ("Next page" moves the URL on).
  const { query, items, next, state } = useCursorList(listInformationRequestsEndpoint, {
    query: filters,
    from: cursor || undefined,
  });
  // A filter the API refused (422) is shown under that filter, in the API's own words.
  const filterErrors =
    state.error instanceof ApiRequestError && state.error.status === 422 ? state.error.details : null;

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    navigate({
      ...Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? "")])),
      next: null,
      prev: null,
    });
  };
  const clear = () => navigate({ status: null, kind: null, startDate: null, endDate: null, next: null, prev: null });
  const nextPage = (next: string) => navigate({ next, prev: cursor ? [...trail, cursor].join(".") : null });
  const previousPage = () => navigate({ next: trail.at(-1) ?? null, prev: trail.slice(0, -1).join(".") || null });
  const pageNumber = cursor ? trail.length + 2 : 1;

  return (
    <div className="stack">
      <PageHeader
        title="Information requests"
        description="Compliance information requests raised against your platform's transfers and KYC submissions."
      />
      <FilterBar
        label="Filter information requests"
        onSubmit={apply}
        onClear={clear}
        filtered={filtered}
        formRef={formRef}
        plain
      >
        <Field label="Status" error={{ message: filterErrors?.status }}>
          {(control) => (
            <select
              {...control}
              name="status"
              defaultValue={filters.status}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            >
              <option value="">All statuses</option>
              {informationRequestStatuses.map((status) => (
                <option key={status} value={status}>
                  {statusLabels[status]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Kind" error={{ message: filterErrors?.kind }}>
          {(control) => (
            <select
              {...control}
              name="kind"
              defaultValue={filters.kind}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            >
              <option value="">All kinds</option>
              {informationRequestKinds.map((kind) => (
                <option key={kind} value={kind}>
                  {kindLabels[kind]}
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
          error={{ message: filterErrors?.startDate }}
        />
        <Field
          label="Created to"
          type="date"
          name="endDate"
          defaultValue={filters.endDate}
          error={{ message: filterErrors?.endDate }}
        />
      </FilterBar>
      <p className="muted" style={{ margin: 0 }}>
        Dates are whole days in UTC, both included.
      </p>

      {filterErrors ? (
        <div className="alert error" role="alert">
          These filters cannot be applied: correct the one marked above.
        </div>
      ) : (
        <DataState
          query={state}
          isEmpty={items.length === 0 && !cursor}
          empty={
            filtered ? (
              <div className="stack" style={{ justifyItems: "center" }}>
                <span>No information requests match these filters.</span>
                <div>
                  <button type="button" onClick={clear}>
                    Clear filters
                  </button>
                </div>
              </div>
            ) : (
              <>
                No information requests yet. They appear here when compliance review raises one against a transfer or a
                KYC submission: see the <Link href="/docs">API reference</Link>.
              </>
            )
          }
        >
          {query.data && (
            <>
              <RequestsTable requests={items} caption={`Information requests, page ${pageNumber}`} />
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
      )}
    </div>
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
