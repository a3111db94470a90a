"use client";

import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { api } from "@/lib/client/api";
import type { recipientSchema } from "@/lib/recipients/schemas";

export type Recipient = z.output<typeof recipientSchema>;

/** Asks before DELETE /v1/recipients/{id}: a deleted recipient can receive no new transfer and is gone from the list. */
export function DeleteRecipientDialog({
  recipient,
  onClose,
  onDone,
}: {
  recipient: Recipient | null;
  onClose: () => void;
  onDone: (recipient: Recipient) => void;
}) {
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      open={recipient !== null}
      title="Delete recipient"
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        const deleted = await api<Recipient>(`/v1/recipients/${encodeURIComponent(recipient!.id)}`, { method: "DELETE" });
        await queryClient.invalidateQueries({ queryKey: ["/v1/recipients"] });
        return deleted;
      }}
      onClose={onClose}
      onDone={onDone}
    >
      {recipient && (
        <>
          Delete <strong>{recipient.name}</strong> (<code>{recipient.id}</code>)? No new transfer can be sent to it afterwards. Transfers already made
          are kept. This cannot be undone.
        </>
      )}
    </ConfirmDialog>
  );
}
