import { createHash, type KeyObject } from "node:crypto";

// Apart from signing-key.ts (which reads the database and the data directory), so the offline
// verifier can name a public key the way the service does without importing either.

/** "ask_" + the first 24 hex characters of SHA-256 over the public key's SPKI DER. */
export function signingKeyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: "spki", format: "der" });
  return `ask_${createHash("sha256").update(der).digest("hex").slice(0, 24)}`;
}
