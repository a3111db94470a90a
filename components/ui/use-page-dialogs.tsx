"use client";

import { useState, type ReactNode } from "react";

/**
 * A page's dialogs: which one is open (and on what), and the sentence its last action left for
 * the page to show. Opening a dialog clears the last sentence; `done` closes it and says what happened.
 */
export function usePageDialogs<Open>() {
  const [open, setOpen] = useState<Open | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return {
    open,
    notice,
    show: (next: Open) => {
      setNotice(null);
      setOpen(next);
    },
    close: () => setOpen(null),
    done: (message: string) => {
      setOpen(null);
      setNotice(message);
    },
  };
}

/** What the last action did, as a polite status line; nothing while there is nothing to say. */
export function Notice({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === "") return null;
  return (
    <div className="alert success" role="status">
      {children}
    </div>
  );
}
