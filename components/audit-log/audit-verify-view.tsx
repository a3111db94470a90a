"use client";

import Link from "@/components/ui/link";
import {
  useChainVerification,
  type PublicKeys,
  type Verification,
} from "@/components/audit-log/use-chain-verification";
import { DateTime } from "@/components/ui/format";
import { ListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { ApiRequestError } from "@/lib/client/api";
import type { ChainVerdict } from "@/lib/client/audit-chain";

/** The Verify page: checks the platform's chain of signed checkpoints in the browser and says how far it holds. */
export function AuditVerifyView() {
  const { state, run } = useChainVerification();
  return (
    <div className="stack">
      <PageHeader
        title="Verify the audit trail"
        description={
          <>
            Your browser checks every checkpoint of the audit trail: that its hash matches its contents, that it names
            the hash of the one before (none removed, inserted or reordered), and that the service&apos;s Ed25519 key
            signed it. The events under each checkpoint are checked offline: export NDJSON from the audit log and run{" "}
            <code>npm run audit:verify</code>.
          </>
        }
        actions={<Link href="/audit-log">← Audit log</Link>}
      />
      <section className="card stack" aria-live="polite" data-testid="audit-verify-result">
        <Outcome state={state} onRetry={run} />
        {state.stage !== "running" && (
          <div>
            <button type="button" onClick={run}>
              Check again
            </button>
          </div>
        )}
      </section>
      {state.stage === "done" && <SigningKeys keys={state.keys} />}
    </div>
  );
}

function Outcome({ state, onRetry }: { state: Verification; onRetry: () => void }) {
  switch (state.stage) {
    case "running":
      return <Progress checked={state.checked} total={state.total} />;
    case "unsupported":
      return (
        <div className="alert warn" role="alert">
          This browser cannot verify Ed25519 signatures (WebCrypto). Use a current Chrome, Edge, Firefox or Safari, or
          verify offline with the NDJSON export and <code>npm run audit:verify</code>.
        </div>
      );
    case "failed":
      return (
        <div className="alert error" role="alert">
          {state.error instanceof ApiRequestError ? state.error.message : "Could not reach the server."}{" "}
          <button type="button" className="link" onClick={onRetry}>
            Try again
          </button>
        </div>
      );
    case "done":
      return <Verdict verdict={state.verdict} />;
  }
}

function Progress({ checked, total }: { checked: number; total: number }) {
  return (
    <div className="stack verify-progress" role="status">
      <p>Checking checkpoints… {total > 0 && `${checked.toLocaleString()} of ${total.toLocaleString()}`}</p>
      <progress max={Math.max(total, 1)} value={checked} aria-label="Checkpoints checked" />
    </div>
  );
}

function Verdict({ verdict }: { verdict: ChainVerdict }) {
  const { last, broken } = verdict;
  if (broken)
    return (
      <div className="alert error" role="alert">
        <strong>Checkpoint {broken.seq} fails.</strong> {sentence(broken.reason)}{" "}
        {last && (
          <>
            Intact up to checkpoint {last.seq}, sealed at <DateTime value={last.sealedAt} />.
          </>
        )}
        <div className="small">
          Checkpoint id <code>{broken.id}</code>
        </div>
      </div>
    );
  if (!last)
    return (
      <p className="muted" role="status">
        No checkpoints yet: events are sealed into a signed checkpoint within about 10 seconds of being recorded.
      </p>
    );
  return (
    <div className="alert success" role="status">
      <strong>
        Intact up to checkpoint {last.seq}, sealed at <DateTime value={last.sealedAt} />.
      </strong>{" "}
      {verdict.verified === 1
        ? "Its hash and signature hold."
        : `All ${verdict.verified.toLocaleString()} checkpoints hold: hashes, chain and signatures.`}
    </div>
  );
}

/** A reason as a sentence of its own: capitalized, with its full stop. */
const sentence = (reason: string) => `${reason[0]!.toUpperCase()}${reason.slice(1)}.`;

/** The keys that signed the platform's checkpoints, each with the seqs it signed (a rotation shows as two rows). */
function SigningKeys({ keys }: { keys: PublicKeys }) {
  return (
    <section className="stack">
      <h2>Signing keys</h2>
      <ListTable
        label="Signing keys"
        caption="The keys that signed this platform's checkpoints"
        rows={keys.keys}
        columns={[
          {
            header: "Key",
            cell: (key) => (
              <>
                <code>{key.id}</code> {key.id === keys.keyId && <span className="badge info">Signing now</span>}
              </>
            ),
          },
          {
            header: "Checkpoints",
            cell: (key) =>
              key.firstSeq === null ? (
                <span className="muted">None yet</span>
              ) : key.firstSeq === key.lastSeq ? (
                `${key.firstSeq}`
              ) : (
                `${key.firstSeq} to ${key.lastSeq}`
              ),
          },
          { header: "First sealed", cell: (key) => <DateTime value={key.firstSealedAt} /> },
          { header: "Last sealed", cell: (key) => <DateTime value={key.lastSealedAt} /> },
        ]}
      />
    </section>
  );
}
