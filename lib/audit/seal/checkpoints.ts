import { decodeCursor, encodeCursor, type Page, type PageQuery } from "@/lib/contract/pagination";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { tenantDb } from "@/lib/tenancy";
import type { CheckpointJson } from "@/lib/audit/seal/format";
import { checkpointJson } from "@/lib/audit/seal/sealer";
import { auditSigningKey } from "@/lib/audit/seal/signing-key";

// The platform's sealed checkpoints and the keys that signed them (docs/operations.md, The verifiable
// audit trail): what the dashboard's Verify page and the offline verifier check the chain against.

/**
 * The seq a cursor continues after. The cursor is the one every list issues (the last row's time and
 * id, lib/contract/pagination.ts); its id names the checkpoint, whose seq is then read.
 */
async function seqAfter(next: string, order: "asc" | "desc"): Promise<number> {
  const cursor = decodeCursor(next);
  if (cursor.order !== order)
    throw new DomainError("bad_request", "next was issued for the other order; pass the same order", {
      next: "order mismatch",
    });
  const row = await tenantDb().auditCheckpoint.findUnique({ where: { id: cursor.id }, select: { seq: true } });
  if (!row) throw new DomainError("bad_request", "next is not a cursor this API returned", { next: "invalid cursor" });
  return row.seq;
}

/**
 * The platform's checkpoints by seq, newest first by default. Keyset over seq rather than over
 * (time, id) as other lists: one pass can seal several checkpoints in the same millisecond, and seq
 * is the chain's own order.
 */
export async function listCheckpoints(query: PageQuery): Promise<Page<CheckpointJson>> {
  const { order, limit } = query;
  const after = query.next === undefined ? undefined : await seqAfter(query.next, order);
  const rows = await tenantDb().auditCheckpoint.findMany({
    where: after === undefined ? {} : { seq: order === "desc" ? { lt: after } : { gt: after } },
    orderBy: { seq: order },
    take: limit + 1,
    omit: { leafHashes: true },
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(checkpointJson),
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.sealedAt, id: last.id, order }) : null,
  };
}

export type SigningKeyRange = {
  id: string;
  publicKey: string;
  createdAt: Date | null;
  firstSeq: number | null;
  lastSeq: number | null;
  firstSealedAt: Date | null;
  lastSealedAt: Date | null;
};

/**
 * The key signing now, and every key that signed a checkpoint of the platform with the seqs it
 * signed: after a rotation (a new AUDIT_SIGNING_KEY) the old key stays listed, so its checkpoints verify.
 */
export async function auditPublicKeys() {
  const current = auditSigningKey();
  const ranges = await tenantDb().auditCheckpoint.groupBy({
    by: ["keyId"],
    _min: { seq: true, sealedAt: true },
    _max: { seq: true, sealedAt: true },
  });
  const ids = [...new Set([current.id, ...ranges.map((range) => range.keyId)])];
  // Signing keys are the service's, not a tenant's: only those named by the platform's own checkpoints are read.
  const stored = await db().auditSigningKey.findMany({ where: { id: { in: ids } } });
  const keys: SigningKeyRange[] = ids.flatMap((id) => {
    const row = stored.find((key) => key.id === id);
    const range = ranges.find((entry) => entry.keyId === id);
    const publicKey = row?.publicKey ?? (id === current.id ? current.publicKeyPem : undefined);
    if (publicKey === undefined) return [];
    return [
      {
        id,
        publicKey,
        createdAt: row?.createdAt ?? null,
        firstSeq: range?._min.seq ?? null,
        lastSeq: range?._max.seq ?? null,
        firstSealedAt: range?._min.sealedAt ?? null,
        lastSealedAt: range?._max.sealedAt ?? null,
      },
    ];
  });
  keys.sort((a, b) => (a.firstSeq ?? Infinity) - (b.firstSeq ?? Infinity));
  return { algorithm: "Ed25519" as const, keyId: current.id, publicKey: current.publicKeyPem, keys };
}
