import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { createOwnerOnlyFileOnce, ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";
import { dataDirectory, env } from "@/lib/env";
import { signingKeyId } from "@/lib/audit/seal/key-id";

// The key that signs audit checkpoints (docs/operations.md, The signing key): AUDIT_SIGNING_KEY,
// or one generated at first start into the data directory beside the TOTP encryption key, stored
// encrypted with it (mode 0600). Its public half is recorded in AuditSigningKey when it first signs,
// so a rotated-out key still verifies the checkpoints it signed.

export type AuditSigningKey = { id: string; privateKey: KeyObject; publicKeyPem: string };

export const AUDIT_SIGNING_KEY_FILE = "audit-signing.key";
/** Associated data of the key file's encryption: the ciphertext means nothing anywhere else. */
export const AUDIT_SIGNING_KEY_CONTEXT = "audit-signing-key";

let cached: AuditSigningKey | undefined;

export { signingKeyId };

export function auditSigningKey(): AuditSigningKey {
  if (cached) return cached;
  const privateKey = createPrivateKey(env().AUDIT_SIGNING_KEY ?? generatedKeyPem());
  const publicKey = createPublicKey(privateKey);
  return (cached = {
    id: signingKeyId(publicKey),
    privateKey,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString().trim(),
  });
}

export function resetAuditSigningKey() {
  cached = undefined;
}

/** The generated key's PKCS#8 PEM, made once: if another process created the file first, theirs is read. */
function generatedKeyPem(): string {
  const file = path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
  if (!existsSync(file)) {
    ensureOwnerOnlyDirectory(path.dirname(file));
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    createOwnerOnlyFileOnce(file, encryptSecret(pem, AUDIT_SIGNING_KEY_CONTEXT) + "\n");
  }
  chmodSync(file, 0o600);
  try {
    return decryptSecret(readFileSync(file, "utf8").trim(), AUDIT_SIGNING_KEY_CONTEXT);
  } catch {
    throw new Error(
      `${file} cannot be read with the encryption key (ENCRYPTION_KEY, or totp-encryption.key in the same directory)`,
    );
  }
}

/** Records the key's public half (once; every later call finds it there). */
export async function recordSigningKey(key: AuditSigningKey): Promise<void> {
  if (await db().auditSigningKey.findUnique({ where: { id: key.id }, select: { id: true } })) return;
  try {
    await db().auditSigningKey.create({ data: { id: key.id, publicKey: key.publicKeyPem } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}
