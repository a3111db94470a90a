"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { CreateDelegatedUserForm, type DelegatedUser } from "@/components/delegated-users/create-delegated-user-form";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { CopyButton, DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { queryString } from "@/lib/client/api";
import { useCan } from "@/components/me";

/** Delegated users: search by external id (kept in the URL), page through them, create one. */
export function DelegatedUsersView() {
  const can = useCan();
  const searchParams = useSearchParams();
  const externalId = searchParams.get("externalId") ?? undefined;
  const { query, items, state } = useCursorList<DelegatedUser>("/v1/delegated_users", { externalId });
  return (
    <div className="stack">
      <PageHeader title="Delegated users" description="Users of your own system linked to this account by their external id." />
      {can("delegated_users:write") && <CreateDelegatedUserForm />}
      {/* Remounts when the URL changes (back/forward), so the box shows the search in effect. */}
      <SearchForm key={externalId ?? ""} current={externalId ?? ""} />
      <DataState
        query={state}
        isEmpty={items.length === 0}
        empty={externalId ? `No delegated user has the external id "${externalId}".` : "No delegated users yet. Create the first one above."}
      >
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">External id</th>
                <th scope="col">ID</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {items.map((user) => (
                <tr key={user.id}>
                  <td data-label="External id">{user.externalId}</td>
                  <td data-label="ID">
                    <span className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
                      <code>{user.id}</code>
                      <CopyButton text={user.id} label="Copy id" />
                    </span>
                  </td>
                  <td data-label="Created">
                    <DateTime value={user.createdAt} />
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

function SearchForm({ current }: { current: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const [value, setValue] = useState(current);
  const search = (externalId: string) => router.replace(`${pathname}${queryString({ externalId: externalId.trim() })}`);
  return (
    <form
      className="row"
      role="search"
      aria-label="Search delegated users"
      onSubmit={(event) => {
        event.preventDefault();
        search(value);
      }}
    >
      <Field label="Search by external id" hint="Exact match." type="search" value={value} onChange={(event) => setValue(event.target.value)} />
      <button type="submit">Search</button>
      {current && (
        <button type="button" className="link" onClick={() => search("")}>
          Show all
        </button>
      )}
    </form>
  );
}
