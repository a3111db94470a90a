"use client";

import { ConfirmDialog, type RowDialogProps } from "@/components/ui/confirm-dialog";
import { api } from "@/lib/client/api";
import { useInvalidate } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { deleteRecipientEndpoint, listRecipientsEndpoint } from "@/lib/recipients/endpoints";

export type Recipient = ResponseOf<typeof deleteRecipientEndpoint>;

/** Asks before DELETE /v1/recipients/{id}: a deleted recipient can receive no new transfer and is gone from the list. */
export function DeleteRecipientDialog({ row: recipient, ...handlers }: RowDialogProps<Recipient>) {
  const invalidate = useInvalidate();
  const remove = async ({ id }: Recipient) => {
    const deleted = await api(deleteRecipientEndpoint, { params: { id } });
    await invalidate(listRecipientsEndpoint);
    return deleted;
  };
  return (
    <ConfirmDialog
      open={recipient !== null}
      title="Delete recipient"
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      onConfirm={() => remove(recipient!)}
      {...handlers}
    >
      {recipient && (
        <>
          Delete <strong>{recipient.name}</strong> (<code>{recipient.id}</code>)? No new transfer can be sent to it
          afterwards. Transfers already made are kept. This cannot be undone.
        </>
      )}
    </ConfirmDialog>
  );
}
