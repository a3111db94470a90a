import { checkpointHashJson, type CheckpointJson } from "@/lib/audit/seal/format";

// The dashboard's Verify page checks the platform's checkpoint chain in the browser, with WebCrypto
// and nothing of the server's but the data (docs/operations.md, The verifiable audit trail): each hash
// over its checkpoint's canonical JSON, the chain through previousHash with seq 1, 2, ..., and each
// Ed25519 signature with the key its keyId names. The events under each checkpoint are checked
// offline (the NDJSON export and `npm run audit:verify`).

/** The first checkpoint that fails, and why, in words the page shows. */
export type ChainBreak = { seq: number; id: string; reason: string };

export type ChainVerdict = {
  /** How many checkpoints held, from seq 1 on. */
  verified: number;
  /** The last checkpoint that held (null when none did). */
  last: CheckpointJson | null;
  /** The first that failed; null when every one held. */
  broken: ChainBreak | null;
};

/** A PEM's DER bytes (the base64 between its BEGIN and END lines). */
export function pemBytes(pem: string): Uint8Array<ArrayBuffer> {
  return base64Bytes(pem.replace(/-----(BEGIN|END)[^-]*-----/g, "").replace(/\s+/g, ""));
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const toHex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** Whether this browser's WebCrypto verifies Ed25519 (Chrome 137+, Firefox 129+, Safari 17+). */
export async function supportsEd25519(pem: string): Promise<boolean> {
  try {
    await crypto.subtle.importKey("spki", pemBytes(pem), { name: "Ed25519" }, false, ["verify"]);
    return true;
  } catch {
    return false;
  }
}

/** Ed25519 over the hash's 32 bytes; a signature that is not even base64 does not hold either. */
async function signatureHolds(checkpoint: CheckpointJson, key: CryptoKey): Promise<boolean> {
  try {
    const signature = base64Bytes(checkpoint.signature);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, signature, hexBytes(checkpoint.hash));
  } catch {
    return false;
  }
}

/**
 * Checks checkpoints in seq order, a page at a time: `check` carries the chain from one call to the
 * next, so a long chain is verified as its pages arrive and the page can show how far it got.
 */
export function chainChecker(publicKeys: ReadonlyMap<string, string>) {
  const imported = new Map<string, Promise<CryptoKey>>();
  const keyOf = (id: string) => {
    let key = imported.get(id);
    if (!key) {
      key = crypto.subtle.importKey("spki", pemBytes(publicKeys.get(id)!), { name: "Ed25519" }, false, ["verify"]);
      imported.set(id, key);
    }
    return key;
  };
  const verdict: ChainVerdict = { verified: 0, last: null, broken: null };

  /** Why `checkpoint` fails after `previous`, or null when it holds. */
  async function fault(checkpoint: CheckpointJson, previous: CheckpointJson | null): Promise<string | null> {
    const expectedSeq = (previous?.seq ?? 0) + 1;
    if (checkpoint.seq !== expectedSeq)
      return `its seq is ${checkpoint.seq} where ${expectedSeq} was expected: a checkpoint is missing or out of order`;
    if (checkpoint.previousHash !== (previous?.hash ?? null))
      return previous
        ? `its previousHash is not the hash of checkpoint ${previous.seq}: the chain is broken here`
        : "it is the first checkpoint but names a previous hash";
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(checkpointHashJson(checkpoint)));
    if (toHex(digest) !== checkpoint.hash) return "its contents do not match its hash: it was changed after sealing";
    if (!publicKeys.has(checkpoint.keyId))
      return `it names a signing key the service does not list (${checkpoint.keyId})`;
    const signed = await signatureHolds(checkpoint, await keyOf(checkpoint.keyId));
    return signed ? null : `its signature does not verify with the key ${checkpoint.keyId}`;
  }

  return {
    verdict: () => verdict,
    /** Checks the next checkpoints (in seq order); stops at the first that fails. Answers whether all held. */
    async check(checkpoints: readonly CheckpointJson[]): Promise<boolean> {
      for (const checkpoint of checkpoints) {
        if (verdict.broken) return false;
        const reason = await fault(checkpoint, verdict.last);
        if (reason) {
          verdict.broken = { seq: checkpoint.seq, id: checkpoint.id, reason };
          return false;
        }
        verdict.verified += 1;
        verdict.last = checkpoint;
      }
      return true;
    },
  };
}
