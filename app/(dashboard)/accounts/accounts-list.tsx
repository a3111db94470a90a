"use client";

import { useQuery } from "@tanstack/react-query";
import { AccountFlagsForm, type Account } from "@/components/accounts/account-flags-form";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";

/** The platform's accounts, a page at a time, each with its feature flags editable in place. */
export function AccountsList() {
  const { query, items, state } = useCursorList<Account>("/v1/accounts/paginate");
  // Parents are named from the whole (unpaginated) list: a parent is usually on another page.
  const all = useQuery({ queryKey: ["/v1/accounts"], queryFn: () => api<Account[]>("/v1/accounts") });
  const names = new Map([...(all.data ?? []), ...items].map((account) => [account.id, account.name]));
  return (
    <div className="stack">
      <PageHeader
        title="Accounts"
        description="Your platform's own account and the accounts under it, newest first. Each account's feature-flag preferences can be changed here."
      />
      <DataState query={state} isEmpty={items.length === 0} empty="No accounts yet.">
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">ID</th>
                <th scope="col">Parent</th>
                <th scope="col">Created</th>
                <th scope="col">Feature flags</th>
              </tr>
            </thead>
            <tbody>
              {items.map((account) => (
                <tr key={account.id} id={account.id}>
                  <td data-label="Name">{account.name}</td>
                  <td data-label="ID" className="mono">{account.id}</td>
                  <td data-label="Parent">
                    {account.parentId ? (
                      <a href={`#${account.parentId}`}>{names.get(account.parentId) ?? <span className="mono">{account.parentId}</span>}</a>
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
            </tbody>
          </table>
        </div>
        <LoadMore query={query} />
      </DataState>
    </div>
  );
}
