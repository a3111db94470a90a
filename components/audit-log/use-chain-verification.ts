"use client";

import { useCallback, useEffect, useState } from "react";
import { auditPublicKeyEndpoint, listAuditCheckpointsEndpoint } from "@/lib/audit/endpoints";
import { chainChecker, supportsEd25519, type ChainVerdict } from "@/lib/client/audit-chain";
import { api, type ApiRequestError } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";

export type PublicKeys = ResponseOf<typeof auditPublicKeyEndpoint>;

/** Where a run is: reading and checking (how far, of how many), done, or stopped before a verdict. */
export type Verification =
  | { stage: "running"; checked: number; total: number }
  | { stage: "done"; verdict: ChainVerdict; keys: PublicKeys }
  | { stage: "unsupported" }
  | { stage: "failed"; error: ApiRequestError | Error };

/** Checkpoints read per request while checking. */
const PAGE = 100;

/**
 * Reads the platform's signing keys and every checkpoint, oldest first, a page at a time, and checks
 * each page as it arrives (lib/client/audit-chain.ts), reporting how far it got. `run()` starts again.
 */
export function useChainVerification() {
  const [state, setState] = useState<Verification>({ stage: "running", checked: 0, total: 0 });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    const report = (next: Verification) => {
      if (!cancelled) setState(next);
    };
    verifyAll(report, () => cancelled).catch((error: unknown) =>
      report({ stage: "failed", error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      cancelled = true;
    };
  }, [attempt]);
  const run = useCallback(() => {
    setState({ stage: "running", checked: 0, total: 0 });
    setAttempt((count) => count + 1);
  }, []);
  return { state, run };
}

async function verifyAll(report: (state: Verification) => void, cancelled: () => boolean) {
  const keys = await api(auditPublicKeyEndpoint);
  if (!(await supportsEd25519(keys.publicKey))) return report({ stage: "unsupported" });
  // The newest checkpoint's seq is how many there are: the progress bar's end.
  const newest = await api(listAuditCheckpointsEndpoint, { query: { limit: 1 } });
  const total = newest.items[0]?.seq ?? 0;
  const checker = chainChecker(new Map(keys.keys.map((key) => [key.id, key.publicKey])));
  let next: string | undefined;
  do {
    const page = await api(listAuditCheckpointsEndpoint, { query: { order: "asc", limit: PAGE, next } });
    if (cancelled()) return;
    const holds = await checker.check(page.items);
    const checked = checker.verdict().verified;
    report({ stage: "running", checked, total: Math.max(total, checked) });
    if (!holds) break;
    next = page.next ?? undefined;
  } while (next);
  report({ stage: "done", verdict: checker.verdict(), keys });
}
