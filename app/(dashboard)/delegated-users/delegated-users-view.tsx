"use client";

import { useState } from "react";
import { CreateDelegatedUserForm } from "@/components/delegated-users/create-delegated-user-form";
import { useCan } from "@/components/me";
import { Field } from "@/components/ui/field";
import { DateTime, ShortId } from "@/components/ui/format";
import { CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlQuery } from "@/components/ui/url-query";
import { useCursorList } from "@/lib/client/queries";
import { listDelegatedUsersEndpoint } from "@/lib/delegated-users/endpoints";

/** Delegated users: search by external id (kept in the URL), page through them, create one. */
export function DelegatedUsersView() {
  const can = useCan();
  const url = useUrlQuery(["externalId"]);
  const externalId = url.values.externalId;
  const list = useCursorList(listDelegatedUsersEndpoint, { query: { externalId } });
  return (
    <div className="stack">
      <PageHeader
        title="Delegated users"
        description="Users of your own system linked to this account by their external id."
      />
      {can("delegated_users:write") && <CreateDelegatedUserForm />}
      {/* Remounts when the URL changes (back/forward), so the box shows the search in effect. */}
      <SearchForm
        key={externalId ?? ""}
        current={externalId ?? ""}
        onSearch={(value) => url.replace({ externalId: value.trim() })}
      />
      <CursorListTable
        label="Delegated users"
        list={list}
        empty={
          externalId
            ? `No delegated user has the external id "${externalId}".`
            : "No delegated users yet. Create the first one above, or through the API."
        }
        columns={[
          { header: "External id", cell: (user) => user.externalId },
          {
            header: "ID",
            cell: (user) => <ShortId id={user.id} />,
          },
          { header: "Created", cell: (user) => <DateTime value={user.createdAt} /> },
        ]}
      />
    </div>
  );
}

function SearchForm({ current, onSearch }: { current: string; onSearch: (externalId: string) => void }) {
  const [value, setValue] = useState(current);
  return (
    <form
      className="row"
      role="search"
      aria-label="Search delegated users"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(value);
      }}
    >
      <Field
        label="Search by external id"
        hint="Exact match."
        type="search"
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button type="submit">Search</button>
      {current && (
        <button type="button" className="link" onClick={() => onSearch("")}>
          Show all
        </button>
      )}
    </form>
  );
}
