"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DeactivateVirtualAccountDialog } from "@/components/virtual-accounts/deactivate-virtual-account-dialog";
import type { VirtualAccount } from "@/components/virtual-accounts/use-virtual-accounts";
import { queryString } from "@/lib/client/api";
import { useCan } from "@/components/me";

const STATUSES = { "": "All", true: "Active", false: "Inactive" } as const;

/** The account's virtual accounts with their state; an active one can be deactivated after a confirmation. */
export function VirtualAccountsView() {
  const can = useCan();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const statusId = useId();
  const isActive = searchParams.get("isActive") ?? "";
  const { query, items, state } = useCursorList<VirtualAccount>("/v1/virtual_accounts", { isActive: isActive || undefined });
  const [confirming, setConfirming] = useState<VirtualAccount | null>(null);
  const [done, setDone] = useState<VirtualAccount | null>(null);

  return (
    <div className="stack">
      <PageHeader
        title="Virtual accounts"
        description="Accounts that receive pay-ins for you. A deactivated virtual account refuses every pay-in."
        actions={
          <div className="field">
            <label htmlFor={statusId}>Status</label>
            <select id={statusId} value={isActive} onChange={(event) => router.replace(`${pathname}${queryString({ isActive: event.target.value })}`)}>
              {Object.entries(STATUSES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        }
      />
      {done && (
        <div className="alert success" role="status">
          Virtual account <strong>{done.key}</strong> is deactivated; it no longer accepts pay-ins.
        </div>
      )}
      <DataState
        query={state}
        isEmpty={items.length === 0}
        empty={isActive ? `No ${isActive === "true" ? "active" : "inactive"} virtual accounts.` : "No virtual accounts yet."}
      >
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Currency</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">ID</th>
                <th scope="col">
                  <span className="muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((account) => (
                <tr key={account.id} id={account.id}>
                  <td data-label="Key">{account.key}</td>
                  <td data-label="Currency">{account.currency}</td>
                  <td data-label="Status">
                    <StatusBadge status={account.isActive ? "active" : "inactive"} />
                    {account.deactivatedAt && (
                      <div className="muted" style={{ fontSize: "0.85rem" }}>
                        since <DateTime value={account.deactivatedAt} />
                      </div>
                    )}
                  </td>
                  <td data-label="Created">
                    <DateTime value={account.createdAt} />
                  </td>
                  <td data-label="ID" className="mono">{account.id}</td>
                  <td data-label="Actions">
                    <div className="row nowrap" style={{ alignItems: "center" }}>
                      <Link href={`/transactions${queryString({ virtualAccountId: account.id })}`} aria-label={`Transactions of ${account.key}`}>
                        Transactions
                      </Link>
                      {account.isActive && can("virtual_accounts:write") && (
                        <button
                          type="button"
                          aria-label={`Deactivate ${account.key}`}
                          onClick={() => {
                            setDone(null);
                            setConfirming(account);
                          }}
                        >
                          Deactivate
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore query={query} />
      </DataState>
      <DeactivateVirtualAccountDialog
        account={confirming}
        onClose={() => setConfirming(null)}
        onDone={(account) => {
          setConfirming(null);
          setDone(account);
        }}
      />
    </div>
  );
}
