"use client";

import type { ReactNode } from "react";
import { useMe } from "@/components/me";
import { CopyButton } from "@/components/ui/format";

/** A set of recovery codes shown once, with Copy and Download (a text file naming whose codes they are). */
export function RecoveryCodeList({ codes, label, children }: { codes: string[]; label: string; children?: ReactNode }) {
  const me = useMe();
  const text = codes.join("\n");
  return (
    <>
      <ul className="mono recovery-codes" aria-label={label}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="row">
        <CopyButton text={text} label="Copy codes" />
        <a
          className="button"
          download="recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(`Recovery codes for ${me.email}\n\n${text}\n`)}`}
        >
          Download codes
        </a>
        {children}
      </div>
    </>
  );
}
