import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createOwnerOnlyFileOnce, ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";
import { dataDirectory, decodeKey, env } from "@/lib/env";

let cachedKey: Buffer | undefined;

/**
 * The 32-byte key for secrets at rest: TOTP_ENCRYPTION_KEY, or a key generated once into the data
 * directory (mode 0600 in a 0700 directory when the service creates it, never in git). Losing it
 * makes enrolled authenticators unreadable.
 */
export function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const fromEnv = env().TOTP_ENCRYPTION_KEY;
  if (fromEnv) return (cachedKey = decodeKey(fromEnv)!);
  const file = path.join(dataDirectory(), "totp-encryption.key");
  if (!existsSync(file)) {
    ensureOwnerOnlyDirectory(path.dirname(file));
    // Complete or absent to every other process; if another one created it first, theirs is read below.
    createOwnerOnlyFileOnce(file, randomBytes(32).toString("base64") + "\n");
  }
  chmodSync(file, 0o600);
  const key = decodeKey(readFileSync(file, "utf8").trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return (cachedKey = key);
}

export function resetEncryptionKey() {
  cachedKey = undefined;
}

/** AES-256-GCM; `context` (e.g. the employee id) is bound as associated data, so a ciphertext copied to another row fails. */
export function encryptSecret(plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), data.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
    ".",
  );
}

export function decryptSecret(stored: string, context: string): string {
  const [version, iv, data, tag] = stored.split(".");
  if (version !== "v1" || !iv || data === undefined || !tag) throw new Error("unknown ciphertext format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
