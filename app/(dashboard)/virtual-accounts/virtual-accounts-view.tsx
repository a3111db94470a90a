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
        actions={<StatusFilter id={statusId} value={isActive} onChange={(value) => url.replace({ isActive: value })} />}
      />
      {deactivation.done && (
        <div className="alert success" role="status">
          Virtual account <strong>{deactivation.done.key}</strong> is deactivated; it no longer accepts pay-ins.
        </div>
      )}
      <CursorListTable
        label="Virtual accounts"
        list={list}
        empty={<NoVirtualAccounts isActive={isActive} />}
        rowId={(account) => account.id}
        columns={[
          { header: "Key", cell: (account) => account.key },
          { header: "Currency", cell: (account) => account.currency },
          { header: "Status", cell: (account) => <AccountStatus account={account} /> },
          { header: "Created", cell: (account) => <DateTime value={account.createdAt} /> },
          { header: "ID", cell: (account) => <ShortId id={account.id} /> },
          {
            header: "Actions",
            heading: actionsHeading,
            cell: (account) => (
              <AccountActions
                account={account}
                onDeactivate={account.isActive && mayDeactivate ? () => deactivation.ask(account) : undefined}
              />
            ),
          },
        ]}
      />
      <DeactivateVirtualAccountDialog {...deactivation.dialog} />
    </div>
  );
}

function StatusFilter({ id, value, onChange }: { id: string; value: string; onChange: (isActive: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>Status</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {Object.entries(STATUSES).map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

function NoVirtualAccounts({ isActive }: { isActive: string }) {
  if (isActive) return `No ${isActive === "true" ? "active" : "inactive"} virtual accounts.`;
  return (
    <>
      No virtual accounts yet. They are opened through the API (in the sandbox, POST /v1/sandbox/virtual_accounts): see
      the <Link href="/docs">API reference</Link>.
    </>
  );
}

function AccountStatus({ account }: { account: VirtualAccount }) {
  return (
    <>
      <StatusBadge status={account.isActive ? "active" : "inactive"} />
      {account.deactivatedAt && (
        <div className="muted" style={{ fontSize: "0.85rem" }}>
          since <DateTime value={account.deactivatedAt} />
        </div>
      )}
    </>
  );
}

/** The account's transactions, and (while it is active, for those who may) its deactivation. */
function AccountActions({ account, onDeactivate }: { account: VirtualAccount; onDeactivate?: () => void }) {
  return (
    <div className="row nowrap" style={{ alignItems: "center" }}>
      <Link
        href={`/transactions${queryString({ virtualAccountId: account.id })}`}
        aria-label={`Transactions of ${account.key}`}
      >
        Transactions
      </Link>
      {onDeactivate && (
        <button type="button" aria-label={`Deactivate ${account.key}`} onClick={onDeactivate}>
          Deactivate
        </button>
      )}
    </div>
  );
}
