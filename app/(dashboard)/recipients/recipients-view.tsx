"use client";

import { useState } from "react";
import { DeleteRecipientDialog, type Recipient } from "@/components/recipients/delete-recipient-dialog";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { DataState } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { useCan } from "@/components/me";

/** Saved recipients (deleted ones are gone); each can be deleted after a confirmation. */
export function RecipientsView() {
  const can = useCan();
  const { query, items, state } = useCursorList<Recipient>("/v1/recipients");
  const [confirming, setConfirming] = useState<Recipient | null>(null);
  const [done, setDone] = useState<Recipient | null>(null);
  return (
    <div className="stack">
      <PageHeader title="Recipients" description="Saved destinations for transfers. A deleted recipient can receive no new transfer." />
      {done && (
        <div className="alert success" role="status">
          Recipient <strong>{done.name}</strong> deleted.
        </div>
      )}
      <DataState query={state} isEmpty={items.length === 0} empty="No saved recipients.">
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">ID</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((recipient) => (
                <tr key={recipient.id}>
                  <td data-label="Name">{recipient.name}</td>
                  <td data-label="ID" className="mono">{recipient.id}</td>
                  <td data-label="Created">
                    <DateTime value={recipient.createdAt} />
                  </td>
                  <td data-label="Actions">
                    {can("recipients:write") && (
                      <button
                        type="button"
                        aria-label={`Delete ${recipient.name}`}
                        onClick={() => {
                          setDone(null);
                          setConfirming(recipient);
                        }}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore query={query} />
      </DataState>
      <DeleteRecipientDialog
        recipient={confirming}
        onClose={() => setConfirming(null)}
        onDone={(recipient) => {
          setConfirming(null);
          setDone(recipient);
        }}
      />
    </div>
  );
}
