import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createOwnerOnlyFileOnce, ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";
import { dataDirectory, decodeKey, env } from "@/lib/env";

// One data-encryption key encrypts every secret at rest: TOTP secrets, webhook endpoints' private keys,
// the SSO client secret, kept idempotent responses and the audit signing key's file. It is
// ENCRYPTION_KEY (TOTP_ENCRYPTION_KEY, its earlier name), or the key file in the data directory. Earlier
// keys in ENCRYPTION_KEYS_PREVIOUS still read what they wrote; `npm run keys:reencrypt` rewrites it all
// under the current key (lib/auth/reencrypt.ts). Each ciphertext names its key ("v2.<key id>...").
// The key file is generated only where nothing encrypted exists yet: lib/auth/key-custody.ts refuses to
// start over secrets no configured key opens, so a restore without its keys stops with a message instead
// of going on under a new key.

/** The key file's name in the data directory (the name it has always had). */
export const ENCRYPTION_KEY_FILE = "totp-encryption.key";

export type EncryptionKey = { id: string; key: Buffer };
export type KeyRing = { current: EncryptionKey; previous: EncryptionKey[] };

/** A key's public name: 16 hex characters of SHA-256 over a label and the key. Tells nothing of the key. */
export function encryptionKeyId(key: Buffer): string {
  return createHash("sha256").update("platform-compliance encryption key id\0").update(key).digest("hex").slice(0, 16);
}

const named = (key: Buffer): EncryptionKey => ({ id: encryptionKeyId(key), key });

let cachedRing: KeyRing | undefined;

export const encryptionKeyFile = () => path.join(dataDirectory(), ENCRYPTION_KEY_FILE);

/** The key the environment gives, if any: ENCRYPTION_KEY, or TOTP_ENCRYPTION_KEY (env() refuses the two differing). */
export function keyFromEnvironment(): Buffer | null {
  const value = env().ENCRYPTION_KEY ?? env().TOTP_ENCRYPTION_KEY;
  return value ? decodeKey(value) : null;
}

/**
 * The current key and the previous ones. The current is the environment's, else the key file's, which is
 * generated (mode 0600 in a 0700 directory) when it does not exist: start-up checks first that nothing
 * encrypted exists then (lib/auth/key-custody.ts).
 */
export function keyRing(): KeyRing {
  if (cachedRing) return cachedRing;
  const current = keyFromEnvironment() ?? keyFileContents({ create: true })!;
  const previous = (env().ENCRYPTION_KEYS_PREVIOUS ?? [])
    .map((value) => decodeKey(value)!)
    .filter((key) => !key.equals(current));
  return (cachedRing = { current: named(current), previous: previous.map(named) });
}

/** The key file's key; null when it does not exist (and `create` is false). */
export function keyFileContents({ create }: { create: boolean }): Buffer | null {
  const file = encryptionKeyFile();
  if (!existsSync(file)) {
    if (!create) return null;
    ensureOwnerOnlyDirectory(path.dirname(file));
    // Complete or absent to every other process; if another one created it first, theirs is read below.
    createOwnerOnlyFileOnce(file, randomBytes(32).toString("base64") + "\n");
  }
  chmodSync(file, 0o600);
  const key = decodeKey(readFileSync(file, "utf8").trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

/** The current encryption key's bytes. */
export const encryptionKey = (): Buffer => keyRing().current.key;

export function resetEncryptionKey() {
  cachedRing = undefined;
}

/** A ciphertext no configured key opens: names the key it was written with, when it says. */
export class MissingKeyError extends Error {
  override name = "MissingKeyError";
  constructor(readonly keyId: string | null) {
    super(
      keyId
        ? `encrypted with key ${keyId}, which neither ENCRYPTION_KEY nor ENCRYPTION_KEYS_PREVIOUS holds`
        : "encrypted with a key that neither ENCRYPTION_KEY nor ENCRYPTION_KEYS_PREVIOUS holds",
    );
  }
}

/**
 * AES-256-GCM under the current key, as "v2.<key id>.<iv>.<data>.<tag>"; `context` (e.g. the employee
 * id) is bound as associated data, so a ciphertext copied to another row fails.
 */
export function encryptSecret(plaintext: string, context: string): string {
  const { id, key } = keyRing().current;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, data, cipher.getAuthTag()].map((bytes) => bytes.toString("base64url"));
  return ["v2", id, ...parts].join(".");
}

/**
 * The plaintext of `stored`. A "v2" ciphertext is opened with the key it names; a "v1" one (written
 * before ciphertexts named their key) with whichever configured key opens it. Throws MissingKeyError
 * when no configured key can, and an Error for text that is no ciphertext.
 */
export function decryptSecret(stored: string, context: string): string {
  const { keyId, iv, data, tag } = parseCiphertext(stored);
  const { current, previous } = keyRing();
  const candidates = [current, ...previous].filter((candidate) => keyId === null || candidate.id === keyId);
  if (candidates.length === 0) throw new MissingKeyError(keyId);
  for (const { key } of candidates) {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
    } catch (error) {
      // A v2 ciphertext under its own key that does not verify was altered (or bound to another row).
      if (keyId !== null) throw error;
    }
  }
  throw new MissingKeyError(null);
}

/** The key a ciphertext names ("v2"), or null for one that names none ("v1"). */
export function ciphertextKeyId(stored: string): string | null {
  return parseCiphertext(stored).keyId;
}

function parseCiphertext(stored: string) {
  const parts = stored.split(".");
  const named = parts[0] === "v2";
  if (parts.length !== (named ? 5 : 4) || !(named || parts[0] === "v1")) throw new Error("unknown ciphertext format");
  const [iv, data, tag] = parts.slice(named ? 2 : 1);
  if (!iv || data === undefined || !tag || (named && !parts[1])) throw new Error("unknown ciphertext format");
  const bytes = (text: string) => Buffer.from(text, "base64url");
  return { keyId: named ? parts[1]! : null, iv: bytes(iv), data: bytes(data), tag: bytes(tag) };
}
