"use client";

import type { ReactNode } from "react";
import { DoneActions } from "@/components/ui/dialog";
import { CopyButton } from "@/components/ui/format";
import { Notice } from "@/components/ui/use-page-dialogs";

/**
 * What the API shows only once (a key's secret, an invitation link): what happened, how to keep it,
 * the value with its copy button, and Done.
 */
export function ShownOnce({
  notice,
  children,
  value,
  label,
  testId,
  copyLabel,
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
      <DoneActions onDone={onDone} />
    </div>
  );
}
