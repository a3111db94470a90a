"use client";

import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";

/** Lets what a dialog shows keep it open (a secret not yet saved): see useDialogLock. */
const DialogLockContext = createContext<(locked: boolean) => void>(() => {});

/**
 * A modal on the native <dialog> element: focus is trapped and Escape closes it, for free, except
 * while its content holds it open (useDialogLock): then Escape is refused, and should the browser
 * close it anyway (Chromium lets a second Escape through without a click in between), it opens again.
 */
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
  const [locked, setLocked] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onCancel={(event) => {
        if (locked) event.preventDefault();
      }}
      onClose={() => {
        if (locked && open) ref.current?.showModal();
        else onClose();
      }}
      aria-labelledby={titleId}
    >
      {open && (
        <div className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          <DialogLockContext.Provider value={setLocked}>{children}</DialogLockContext.Provider>
        </div>
      )}
    </dialog>
  );
}

/** While `locked`, the surrounding Dialog stays open: Escape does nothing and only the content's own button closes it. */
export function useDialogLock(locked: boolean) {
  const setLocked = useContext(DialogLockContext);
  useEffect(() => {
    setLocked(locked);
    return () => setLocked(false);
  }, [locked, setLocked]);
}

/** The one button under what a dialog shows once its action is done (a secret, a link, new codes): closes it. */
export function DoneActions({ onDone, disabled = false }: { onDone: () => void; disabled?: boolean }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="primary" onClick={onDone} disabled={disabled}>
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
