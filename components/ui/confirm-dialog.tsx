"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";

/**
 * Asks before an action that cannot be undone: Cancel has the focus, the action's error stays in
 * the dialog next to its buttons, and the dialog closes only through Cancel, Escape or success.
 */
export function ConfirmDialog<T>({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  onConfirm,
  onClose,
  onDone,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  onConfirm: () => Promise<T>;
  onClose: () => void;
  onDone: (result: T) => void;
}) {
  const action = useMutation({ mutationFn: onConfirm, onSuccess: onDone });
  const close = () => {
    action.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={title}>
      {open && (
        <>
          <p style={{ margin: 0 }}>{children}</p>
          <ErrorMessage error={action.error} />
          <div className="dialog-actions">
            <button type="button" onClick={close} autoFocus>
              Cancel
            </button>
            <button type="button" className="danger" disabled={action.isPending} onClick={() => action.mutate()}>
              {action.isPending ? pendingLabel : confirmLabel}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/** What a dialog that acts on one row of a list takes: the row (null: closed), and where it reports. */
export type RowDialogProps<T> = { row: T | null; onClose: () => void; onDone: (result: T) => void };

/**
 * The row a list's action (Delete, Deactivate) is asking about, and the last row it finished, for a
 * notice above the list: `ask(row)` opens the dialog, `dialog` goes to it as its props.
 */
export function useRowAction<T>() {
  const [row, setRow] = useState<T | null>(null);
  const [done, setDone] = useState<T | null>(null);
  const dialog: RowDialogProps<T> = {
    row,
    onClose: () => setRow(null),
    onDone: (result) => {
      setRow(null);
      setDone(result);
    },
  };
  const ask = (next: T) => {
    setDone(null);
    setRow(next);
  };
  return { done, ask, dialog };
}
