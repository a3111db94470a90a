"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
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
  return (
    <ConfirmDialog
      open={account !== null}
      title="Deactivate virtual account"
      confirmLabel="Deactivate"
      pendingLabel="Deactivating…"
      onConfirm={async () => {
        const updated = await api<VirtualAccount>(`/v1/virtual_accounts/${encodeURIComponent(account!.id)}`, { method: "DELETE" });
        await queryClient.invalidateQueries({ queryKey: ["/v1/virtual_accounts"] });
        return updated;
      }}
      onClose={onClose}
      onDone={onDone}
    >
      {account && (
        <>
          Deactivate <strong>{account.key}</strong> ({account.currency}, <code>{account.id}</code>)? It will refuse every pay-in from now on. This
          cannot be undone.
        </>
      )}
    </ConfirmDialog>
  );
}
