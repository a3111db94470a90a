"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import type { VirtualAccount } from "@/components/virtual-accounts/use-virtual-accounts";
import { api } from "@/lib/client/api";

/** Asks before DELETE /v1/virtual_accounts/{id}: deactivation cannot be undone and stops every pay-in. */
export function DeactivateVirtualAccountDialog({
  account,
  onClose,
  onDone,
}: {
  account: VirtualAccount | null;
  onClose: () => void;
  onDone: (account: VirtualAccount) => void;
}) {
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: (id: string) => api<VirtualAccount>(`/v1/virtual_accounts/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async (updated) => {
      await queryClient.invalidateQueries({ queryKey: ["/v1/virtual_accounts"] });
      onDone(updated);
    },
  });
  const close = () => {
    deactivate.reset();
    onClose();
  };
  return (
    <Dialog open={account !== null} onClose={close} title="Deactivate virtual account">
      {account && (
        <>
          <p style={{ margin: 0 }}>
            Deactivate <strong>{account.key}</strong> ({account.currency}, <code>{account.id}</code>)? It will refuse every pay-in from now on.
            This cannot be undone.
          </p>
          <ErrorMessage error={deactivate.error} />
          <div className="dialog-actions">
            <button type="button" onClick={close} autoFocus>
              Cancel
            </button>
            <button type="button" className="danger" disabled={deactivate.isPending} onClick={() => deactivate.mutate(account.id)}>
              {deactivate.isPending ? "Deactivating…" : "Deactivate"}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
