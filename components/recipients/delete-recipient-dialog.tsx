"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
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
  const remove = useMutation({
    mutationFn: (id: string) => api<Recipient>(`/v1/recipients/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async (deleted) => {
      await queryClient.invalidateQueries({ queryKey: ["/v1/recipients"] });
      onDone(deleted);
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={recipient !== null} onClose={close} title="Delete recipient">
      {recipient && (
        <>
          <p style={{ margin: 0 }}>
            Delete <strong>{recipient.name}</strong> (<code>{recipient.id}</code>)? No new transfer can be sent to it afterwards. Transfers already
            made are kept. This cannot be undone.
          </p>
          <ErrorMessage error={remove.error} />
          <div className="dialog-actions">
            <button type="button" onClick={close} autoFocus>
              Cancel
            </button>
            <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(recipient.id)}>
              {remove.isPending ? "Deleting…" : "Delete"}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
