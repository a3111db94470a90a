"use client";

import Link from "@/components/ui/link";
import { AccountFlagsForm } from "@/components/accounts/account-flags-form";
import { DataTable } from "@/components/ui/data-table";
import { LoadMore } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { DateTime, ShortId } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { listAccountsEndpoint, pageAccountsEndpoint } from "@/lib/accounts/endpoints";
import { useApiQuery, useCursorList } from "@/lib/client/queries";

/** The platform's accounts, a page at a time, each with its feature flags editable in place. */
export function AccountsList() {
  const { query, items, state } = useCursorList(pageAccountsEndpoint);
  // Parents are named from the whole (unpaginated) list: a parent is usually on another page.
  const all = useApiQuery(listAccountsEndpoint);
  const names = new Map([...(all.data ?? []), ...items].map((account) => [account.id, account.name]));
  return (
    <div className="stack">
      <PageHeader
        title="Accounts"
        description="Your platform's own account and the accounts under it, newest first. Each account's feature-flag preferences can be changed here."
      />
      <DataState
        query={state}
        isEmpty={items.length === 0}
        empty={
          <>
            No accounts yet. Sub-accounts are opened through the API: see the <Link href="/docs">API reference</Link>.
          </>
        }
      >
        <DataTable label="Accounts" columns={["Name", "ID", "Parent", "Created", "Feature flags"]}>
          {items.map((account) => (
            <tr key={account.id} id={account.id}>
              <td data-label="Name">{account.name}</td>
              <td data-label="ID">
                <ShortId id={account.id} />
              </td>
              <td data-label="Parent">
                {account.parentId ? (
                  <a href={`#${account.parentId}`}>
                    {names.get(account.parentId) ?? <span className="mono">{account.parentId}</span>}
                  </a>
                ) : (
                  <span className="badge info">platform</span>
                )}
              </td>
              <td data-label="Created">
                <DateTime value={account.createdAt} />
              </td>
              <td data-label="Feature flags">
                <AccountFlagsForm account={account} />
              </td>
            </tr>
          ))}
        </DataTable>
        <LoadMore query={query} />
      </DataState>
    </div>
  );
}
