"use client";

import { useId, useState, type ReactNode } from "react";
import { DoneActions, useDialogLock } from "@/components/ui/dialog";
import { CopyButton } from "@/components/ui/format";
import { Notice } from "@/components/ui/use-page-dialogs";

/**
 * What the API shows only once (a key's secret, an invitation or password-reset link): what happened,
 * how to keep it, the value with its copy button, and Done once the user ticked that they saved it.
 */
export function ShownOnce({
  notice,
  children,
  value,
  label,
  testId,
  copyLabel,
  savedLabel = "I have saved it",
  onDone,
}: {
  notice: ReactNode;
  /** Why it must be copied now, and anything else to know first. */
  children: ReactNode;
  value: string;
  /** The name of the box holding the value, for screen readers. */
  label: string;
  testId: string;
  copyLabel: string;
  /** The tick that unlocks Done, worded for the secret ("I have copied the link"). */
  savedLabel?: string;
  onDone: () => void;
}) {
  return (
    <div className="stack">
      <Notice>{notice}</Notice>
      {children}
      <div className="secret-box" role="group" aria-label={label}>
        <code data-testid={testId}>{value}</code>
        <CopyButton text={value} label={copyLabel} />
      </div>
      <SavedThenDone label={savedLabel} onDone={onDone} />
    </div>
  );
}

/**
 * A secret shown once stays on screen until the user ticks that they saved it (docs/dashboard.md,
 * Behaviour). Until then Done is disabled and the dialog around it cannot be closed (useDialogLock).
 */
export function SavedThenDone({ label, onDone }: { label: string; onDone: () => void }) {
  const id = useId();
  const [saved, setSaved] = useState(false);
  useDialogLock(!saved);
  return (
    <>
      <div className="saved-check">
        <input
          type="checkbox"
          id={id}
          checked={saved}
          onChange={(event) => setSaved(event.target.checked)}
          data-testid="shown-once-saved"
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <DoneActions onDone={onDone} disabled={!saved} />
    </>
  );
}
