"use client";

import { ConfirmDialog, type RowDialogProps } from "@/components/ui/confirm-dialog";
import type { VirtualAccount } from "@/components/virtual-accounts/use-virtual-accounts";
import { api } from "@/lib/client/api";
import { useInvalidate } from "@/lib/client/queries";
import { deactivateVirtualAccountEndpoint, listVirtualAccountsEndpoint } from "@/lib/virtual-accounts/endpoints";

/** Asks before DELETE /v1/virtual_accounts/{id}: deactivation cannot be undone and stops every pay-in. */
export function DeactivateVirtualAccountDialog({ row: account, ...handlers }: RowDialogProps<VirtualAccount>) {
  const invalidate = useInvalidate();
  const deactivate = async ({ id }: VirtualAccount) => {
    const updated = await api(deactivateVirtualAccountEndpoint, { params: { idOrKey: id } });
    // The list pages and the pickers' choices alike.
    await invalidate(listVirtualAccountsEndpoint);
    return updated;
  };
  return (
    <ConfirmDialog
      open={account !== null}
      title="Deactivate virtual account"
      confirmLabel="Deactivate"
      pendingLabel="Deactivating…"
      onConfirm={() => deactivate(account!)}
      {...handlers}
    >
      {account && (
        <>
          Deactivate <strong>{account.key}</strong> ({account.currency}, <code>{account.id}</code>)? It will refuse
          every pay-in from now on. This cannot be undone.
        </>
      )}
    </ConfirmDialog>
  );
}
