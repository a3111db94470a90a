import { createHash } from "node:crypto";

// RFC 6962, section 2.1: the Merkle Tree Hash over SHA-256, with leaves hashed as 0x00 || data and
// nodes as 0x01 || left || right (so a leaf can never pass for a node).

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export const leafHash = (data: string | Uint8Array): Buffer =>
  createHash("sha256").update(LEAF_PREFIX).update(data).digest();

export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer =>
  createHash("sha256").update(NODE_PREFIX).update(left).update(right).digest();

/**
 * MTH over the leaves' hashes. RFC 6962 splits n leaves at the largest power of two below n; pairing
 * each level left to right and carrying an odd last node up unchanged builds that same tree.
 */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Buffer {
  if (leafHashes.length === 0) return createHash("sha256").digest();
  let level = leafHashes;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(i + 1 < level.length ? nodeHash(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return Buffer.from(level[0]!);
}
