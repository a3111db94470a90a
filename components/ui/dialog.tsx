"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/** A modal on the native <dialog> element: focus is trapped and Escape closes it, for free. */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby={titleId}>
      {open && (
        <div className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** The one button under what a dialog shows once its action is done (a secret, a link, new codes): closes it. */
export function DoneActions({ onDone }: { onDone: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/**
 * What a dialog's action gave (shown once, in place of its form) and the close that forgets it, so
 * the next opening starts with the form again.
 */
export function useDialogResult<T>(onClose: () => void) {
  const [result, setResult] = useState<T | null>(null);
  const close = () => {
    setResult(null);
    onClose();
  };
  return [result, setResult, close] as const;
}
