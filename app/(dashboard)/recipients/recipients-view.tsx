"use client";

import Link from "@/components/ui/link";
import { useCan } from "@/components/me";
import { DeleteRecipientDialog, type Recipient } from "@/components/recipients/delete-recipient-dialog";
import { useRowAction } from "@/components/ui/confirm-dialog";
import { DateTime, ShortId } from "@/components/ui/format";
import { actionsHeading, CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useCursorList } from "@/lib/client/queries";
import { listRecipientsEndpoint } from "@/lib/recipients/endpoints";

/** Saved recipients (deleted ones are gone); each can be deleted after a confirmation. */
export function RecipientsView() {
  const mayDelete = useCan()("recipients:write");
  const list = useCursorList(listRecipientsEndpoint);
  const deletion = useRowAction<Recipient>();
  return (
    <div className="stack">
      <PageHeader
        title="Recipients"
        description="Saved destinations for transfers. A deleted recipient can receive no new transfer."
      />
      {deletion.done && (
        <div className="alert success" role="status">
          Recipient <strong>{deletion.done.name}</strong> deleted.
        </div>
      )}
      <CursorListTable
        label="Recipients"
        list={list}
        empty={
          <>
            No saved recipients. They are added through the API: see the <Link href="/docs">API reference</Link>.
          </>
        }
        columns={[
          { header: "Name", cell: (recipient) => recipient.name },
          { header: "ID", cell: (recipient) => <ShortId id={recipient.id} /> },
          { header: "Created", cell: (recipient) => <DateTime value={recipient.createdAt} /> },
          {
            header: "Actions",
            heading: actionsHeading,
            cell: (recipient) =>
              mayDelete && (
                <button type="button" aria-label={`Delete ${recipient.name}`} onClick={() => deletion.ask(recipient)}>
                  Delete
                </button>
              ),
          },
        ]}
      />
      <DeleteRecipientDialog {...deletion.dialog} />
    </div>
  );
}
