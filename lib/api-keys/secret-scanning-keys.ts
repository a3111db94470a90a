import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";

// The public keys that sign secret-scanning reports (GitHub's partner program), as
// SECRET_SCANNING_PUBLIC_KEYS gives them. No imports from lib/env: env.ts validates with this at start-up.

/** One signing key: the identifier a report names it by (Github-Public-Key-Identifier), and the key. */
export type ScanningKey = { identifier: string; key: KeyObject };

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/**
 * The keys in SECRET_SCANNING_PUBLIC_KEYS, or the reason they cannot be used. Two forms:
 * - GitHub's own answer, pasted as it is: `{ "public_keys": [{ "key_identifier", "key", "is_current" }] }`
 *   from https://api.github.com/meta/public_keys/secret_scanning (each key known by its key_identifier);
 * - one or more PEM blocks ("-----BEGIN PUBLIC KEY-----"), one after the other, each known by the SHA-256
 *   of its DER encoding in hex (how GitHub derives its identifiers).
 * In the PEM form `\n` may stand for line breaks. Every key must be an ECDSA P-256 key: the only kind GitHub signs with.
 */
export function parseScanningKeys(text: string): { keys: ScanningKey[] } | { error: string } {
  const value = text.trim();
  try {
    // JSON escapes its own line breaks; PEM given on one line may write them as `\n`.
    const keys = value.startsWith("{") ? fromGitHubJson(value) : fromPemBlocks(value.replace(/\\n/g, "\n"));
    if (keys.length === 0) return { error: "holds no public key" };
    const wrong = keys.find(
      ({ key }) => key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1",
    );
    if (wrong) return { error: `key ${wrong.identifier} is not an ECDSA P-256 public key` };
    return { keys };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function fromGitHubJson(value: string): ScanningKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error("is neither PEM nor valid JSON");
  }
  const list = (parsed as { public_keys?: unknown }).public_keys;
  if (!Array.isArray(list)) throw new Error('as JSON must be GitHub\'s { "public_keys": [...] }');
  return list.map((entry: { key_identifier?: unknown; key?: unknown }, index) => {
    if (typeof entry?.key_identifier !== "string" || typeof entry.key !== "string")
      throw new Error(`public_keys[${index}] needs key_identifier and key`);
    return { identifier: entry.key_identifier, key: publicKey(entry.key, `public_keys[${index}]`) };
  });
}

function fromPemBlocks(value: string): ScanningKey[] {
  const blocks = value.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error('must hold PEM blocks ("-----BEGIN PUBLIC KEY-----") or GitHub\'s JSON');
  return blocks.map((pem, index) => {
    const key = publicKey(pem, `PEM block ${index + 1}`);
    const der = key.export({ type: "spki", format: "der" });
    return { identifier: createHash("sha256").update(der).digest("hex"), key };
  });
}

function publicKey(pem: string, where: string): KeyObject {
  try {
    return createPublicKey(pem);
  } catch {
    throw new Error(`${where} is not a readable PEM public key`);
  }
}

/**
 * Whether `signature` (base64 of a DER-encoded ECDSA signature, as GitHub sends it) signs `body` with
 * the key named `identifier`. False, never a throw, for any unknown identifier or unreadable signature.
 */
export function verifyScanningSignature(
  keys: readonly ScanningKey[],
  { identifier, signature, body }: { identifier: string | null; signature: string | null; body: Uint8Array },
): boolean {
  const key = identifier ? keys.find((each) => each.identifier === identifier) : undefined;
  if (!key || !signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return verify("sha256", body, { key: key.key, dsaEncoding: "der" }, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
