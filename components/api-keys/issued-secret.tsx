"use client";

import type { ReactNode } from "react";
import { labelOf, type ApiKeyCreated } from "@/components/api-keys/use-api-keys";
import { ShownOnce } from "@/components/ui/shown-once";
import { DateTime } from "@/components/ui/format";

/** A new key's secret, shown this once with a copy button (after issuing and after rolling). */
export function IssuedSecret({
  issued,
  onDone,
  children,
}: {
  issued: ApiKeyCreated;
  onDone: () => void;
  children?: ReactNode;
}) {
  return (
    <ShownOnce
      notice={
        <>
          <strong>{labelOf(issued)}</strong> is ready. It works until <DateTime value={issued.expiresAt} day />.
        </>
      }
      value={issued.secret}
      label="API key secret"
      testId="api-key-secret"
      copyLabel="Copy key"
      savedLabel="I have saved the key"
      onDone={onDone}
    >
      {children}
      <p className="alert warn" style={{ margin: 0 }}>
        <strong>Copy it now: you will not see this key again.</strong> Store it in your secret manager; we keep only a
        hash of it.
      </p>
    </ShownOnce>
  );
}
