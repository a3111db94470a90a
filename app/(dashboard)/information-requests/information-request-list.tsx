"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useId, useRef, type FormEvent } from "react";
import { kindLabels, useTransfer, type InformationRequest } from "@/components/information-requests/hooks";
import { RequestsTable } from "@/components/information-requests/requests-table";
import { DataState } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { api, ApiRequestError, queryString } from "@/lib/client/api";
import { informationRequestKinds } from "@/lib/information-requests/schemas";

const PAGE_SIZE = 20;
const FILTERS = ["kind", "startDate", "endDate"] as const;

type Page = { items: InformationRequest[]; next: string | null };

/**
 * Everything the list shows lives in the URL, so a view can be bookmarked, shared and reloaded, and
 * back/forward steps through filter changes and pages: `kind`, `startDate`, `endDate`, the cursor of
 * the page shown (`next`, as the API names it) and the cursors of the pages before it (`prev`, for
 * "Previous page"; the API's cursors only go forward). `transferId` shows one transfer's requests.
 */
export function InformationRequestList() {
  const transferId = useSearchParams().get("transferId");
  return transferId ? <TransferRequests transferId={transferId} /> : <FilteredRequests />;
}

function useNavigate() {
  const router = useRouter();
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
  const kindId = useId();
  const filters = Object.fromEntries(FILTERS.map((name) => [name, searchParams.get(name) ?? ""])) as Record<(typeof FILTERS)[number], string>;
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

  const query = useQuery({
    queryKey: ["information-requests", { ...filters, cursor }],
    queryFn: () => api<Page>(`/v1/information_requests${queryString({ ...filters, next: cursor, limit: PAGE_SIZE })}`),
  });
  // A filter the API refused (422) is shown under that filter, in the API's own words.
  const filterErrors = query.error instanceof ApiRequestError && query.error.status === 422 ? query.error.details : null;

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    navigate({ ...Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? "")])), next: null, prev: null });
  };
  const clear = () => navigate({ kind: null, startDate: null, endDate: null, next: null, prev: null });
  const nextPage = (next: string) => navigate({ next, prev: cursor ? [...trail, cursor].join(".") : null });
  const previousPage = () => navigate({ next: trail.at(-1) ?? null, prev: trail.slice(0, -1).join(".") || null });
  const pageNumber = cursor ? trail.length + 2 : 1;

  return (
    <div className="stack">
      <PageHeader title="Information requests" description="Compliance information requests raised against your platform's transfers and KYC submissions." />
      <form ref={formRef} className="card row" onSubmit={apply} aria-label="Filter information requests" noValidate>
        <div className="field">
          <label htmlFor={kindId}>Kind</label>
          <select
            id={kindId}
            name="kind"
            defaultValue={filters.kind}
            aria-invalid={filterErrors?.kind ? true : undefined}
            aria-describedby={filterErrors?.kind ? `${kindId}-error` : undefined}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          >
            <option value="">All kinds</option>
            {informationRequestKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabels[kind]}
              </option>
            ))}
          </select>
          {filterErrors?.kind && (
            <span id={`${kindId}-error`} className="field-error" role="alert">
              {filterErrors.kind}
            </span>
          )}
        </div>
        <Field label="Created from" type="date" name="startDate" defaultValue={filters.startDate} error={{ message: filterErrors?.startDate }} />
        <Field label="Created to" type="date" name="endDate" defaultValue={filters.endDate} error={{ message: filterErrors?.endDate }} />
        <button type="submit" className="primary">
          Apply filters
        </button>
        {filtered && (
          <button type="button" onClick={clear}>
            Clear filters
          </button>
        )}
      </form>
      <p className="muted" style={{ margin: 0 }}>
        Dates are whole days in UTC, both included.
      </p>

      {filterErrors ? (
        <div className="alert error" role="alert">
          These filters cannot be applied: correct the one marked above.
        </div>
      ) : (
        <DataState
          query={query}
          isEmpty={query.data?.items.length === 0 && !cursor}
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
              "No information requests yet. They appear here when compliance review raises one against a transfer or a KYC submission."
            )
          }
        >
          {query.data && (
            <>
              <RequestsTable requests={query.data.items} caption={`Information requests, page ${pageNumber}`} />
              <nav className="row" aria-label="Pages" style={{ justifyContent: "space-between", alignItems: "center" }}>
                <span className="muted">Page {pageNumber}</span>
                <div className="row">
                  <button type="button" onClick={previousPage} disabled={!cursor}>
                    Previous page
                  </button>
                  <button type="button" onClick={() => query.data.next && nextPage(query.data.next)} disabled={!query.data.next}>
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
  const requests = useQuery({
    queryKey: ["information-requests", "transfer", transferId],
    queryFn: () => api<InformationRequest[]>(`/v1/transfers/${encodeURIComponent(transferId)}/information_requests`),
  });
  return (
    <div className="stack">
      <PageHeader
        title="Information requests for a transfer"
        description={<code>{transferId}</code>}
        actions={<Link href="/information-requests">All information requests</Link>}
      />
      <section className="card" aria-labelledby="transfer-heading">
        <h2 id="transfer-heading" style={{ marginTop: 0 }}>
          Transfer
        </h2>
        <DataState query={transfer}>
          {transfer.data && (
            <dl className="props">
              <dt>Amount</dt>
              <dd>
                {transfer.data.amount} {transfer.data.currency}
              </dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={transfer.data.status} />
              </dd>
              <dt>Recipient</dt>
              <dd>
                <code>{transfer.data.recipientId}</code>
              </dd>
              <dt>Created</dt>
              <dd>
                <DateTime value={transfer.data.createdAt} />
              </dd>
            </dl>
          )}
        </DataState>
      </section>
      <DataState query={requests} isEmpty={requests.data?.length === 0} empty="No information requests were raised against this transfer.">
        {requests.data && <RequestsTable requests={requests.data} caption={`Information requests raised against transfer ${transferId}`} />}
      </DataState>
    </div>
  );
}
