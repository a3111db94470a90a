"use client";

import Link from "@/components/ui/link";
import { useId } from "react";
import { useCan } from "@/components/me";
import { useRowAction } from "@/components/ui/confirm-dialog";
import { DateTime, ShortId, StatusBadge } from "@/components/ui/format";
import { actionsHeading, CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlQuery } from "@/components/ui/url-query";
import { DeactivateVirtualAccountDialog } from "@/components/virtual-accounts/deactivate-virtual-account-dialog";
import type { VirtualAccount } from "@/components/virtual-accounts/use-virtual-accounts";
import { queryString } from "@/lib/client/api";
import { useCursorList } from "@/lib/client/queries";
import { listVirtualAccountsEndpoint } from "@/lib/virtual-accounts/endpoints";

const STATUSES = { "": "All", true: "Active", false: "Inactive" } as const;

/** The account's virtual accounts with their state; an active one can be deactivated after a confirmation. */
export function VirtualAccountsView() {
  const mayDeactivate = useCan()("virtual_accounts:write");
  const url = useUrlQuery(["isActive"]);
  const statusId = useId();
  const isActive = url.values.isActive ?? "";
  const list = useCursorList(listVirtualAccountsEndpoint, { query: url.values });
  const deactivation = useRowAction<VirtualAccount>();

  return (
    <div className="stack">
      <PageHeader
        title="Virtual accounts"
        description="Accounts that receive pay-ins for you. A deactivated virtual account refuses every pay-in."
        actions={
          <div className="field">
            <label htmlFor={statusId}>Status</label>
            <select id={statusId} value={isActive} onChange={(event) => url.replace({ isActive: event.target.value })}>
              {Object.entries(STATUSES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        }
      />
      {deactivation.done && (
        <div className="alert success" role="status">
          Virtual account <strong>{deactivation.done.key}</strong> is deactivated; it no longer accepts pay-ins.
        </div>
      )}
      <CursorListTable
        label="Virtual accounts"
        list={list}
        empty={
          isActive ? (
            `No ${isActive === "true" ? "active" : "inactive"} virtual accounts.`
          ) : (
            <>
              No virtual accounts yet. They are opened through the API (in the sandbox, POST
              /v1/sandbox/virtual_accounts): see the <Link href="/docs">API reference</Link>.
            </>
          )
        }
        rowId={(account) => account.id}
        columns={[
          { header: "Key", cell: (account) => account.key },
          { header: "Currency", cell: (account) => account.currency },
          {
            header: "Status",
            cell: (account) => (
              <>
                <StatusBadge status={account.isActive ? "active" : "inactive"} />
                {account.deactivatedAt && (
                  <div className="muted" style={{ fontSize: "0.85rem" }}>
                    since <DateTime value={account.deactivatedAt} />
                  </div>
                )}
              </>
            ),
          },
          { header: "Created", cell: (account) => <DateTime value={account.createdAt} /> },
          { header: "ID", cell: (account) => <ShortId id={account.id} /> },
          {
            header: "Actions",
            heading: actionsHeading,
            cell: (account) => (
              <div className="row nowrap" style={{ alignItems: "center" }}>
                <Link
                  href={`/transactions${queryString({ virtualAccountId: account.id })}`}
                  aria-label={`Transactions of ${account.key}`}
                >
                  Transactions
                </Link>
                {account.isActive && mayDeactivate && (
                  <button
                    type="button"
                    aria-label={`Deactivate ${account.key}`}
                    onClick={() => deactivation.ask(account)}
                  >
                    Deactivate
                  </button>
                )}
              </div>
            ),
          },
        ]}
      />
      <DeactivateVirtualAccountDialog {...deactivation.dialog} />
    </div>
  );
}
