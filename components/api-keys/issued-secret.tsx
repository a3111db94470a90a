"use client";

import type { ReactNode } from "react";
import { labelOf, type ApiKeyCreated } from "@/components/api-keys/use-api-keys";
import { DoneActions } from "@/components/ui/dialog";
import { CopyButton, DateTime } from "@/components/ui/format";

/** A new key's secret, shown this once with a copy button (after issuing and after rolling). */
export function IssuedSecret({ issued, onDone, children }: { issued: ApiKeyCreated; onDone: () => void; children?: ReactNode }) {
  return (
    <div className="stack">
      <div className="alert success" role="status">
        <strong>{labelOf(issued)}</strong> is ready. It works until <DateTime value={issued.expiresAt} />.
      </div>
      {children}
      <p className="alert warn" style={{ margin: 0 }}>
        <strong>Copy it now: you will not see this key again.</strong> Store it in your secret manager; we keep only a hash of it.
      </p>
      <div className="secret-box" role="group" aria-label="API key secret">
        <code data-testid="api-key-secret">{issued.secret}</code>
        <CopyButton text={issued.secret} label="Copy key" />
      </div>
      <DoneActions onDone={onDone} />
    </div>
  );
}
