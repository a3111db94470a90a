import { existsSync } from "node:fs";
import path from "node:path";
import {
  decryptSecret,
  ENCRYPTION_KEY_FILE,
  encryptionKeyFile,
  encryptionKeyId,
  keyFileContents,
  keyFromEnvironment,
  MissingKeyError,
} from "@/lib/auth/encryption";
import { ENCRYPTED_COLUMNS, keysUsedBy } from "@/lib/auth/secrets-at-rest";
import { AUDIT_SIGNING_KEY_FILE } from "@/lib/audit/seal/signing-key";
import { rawQuery } from "@/lib/db/raw-sql";
import { dataDirectory, decodeKey, env } from "@/lib/env";

// Start-up's check that the configured keys fit the data, before anything loads or generates a key. The
// service never makes a key over data that an existing key encrypted or signed: a database restored
// without its key files (or started without ENCRYPTION_KEY) stops here, naming what is missing, instead
// of going on under a new key that cannot read the TOTP secrets and webhook keys, and under a new audit
// key that continues the checkpoints as if nothing happened. Nothing is written before the check passes.

export class KeyCustodyError extends Error {
  override name = "KeyCustodyError";
}

/** Throws KeyCustodyError (one line, naming the variable or file) when the keys do not fit the data. */
export async function checkKeyCustody(): Promise<void> {
  await checkEncryptionKey();
  await checkAuditSigningKey();
}

async function checkEncryptionKey() {
  const current = keyFromEnvironment() ?? keyFileContents({ create: false });
  const used = await Promise.all(ENCRYPTED_COLUMNS.map(async (column) => ({ column, ...(await keysUsedBy(column)) })));
  const auditKeyFile = path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
  if (!current) {
    const holding = used
      .filter(({ keyIds, unnamed }) => keyIds.length > 0 || unnamed)
      .map(({ column }) => column.label);
    if (existsSync(auditKeyFile)) holding.push(`the audit signing key (${auditKeyFile})`);
    if (holding.length === 0) return;
    throw new KeyCustodyError(
      `No encryption key: ENCRYPTION_KEY is not set and ${encryptionKeyFile()} does not exist, but encrypted data does (${holding.join(", ")}). Set ENCRYPTION_KEY, or restore ${ENCRYPTION_KEY_FILE} from the backup; a new key could read none of it.`,
    );
  }
  const configured = [current, ...(env().ENCRYPTION_KEYS_PREVIOUS ?? []).map((value) => decodeKey(value)!)];
  const known = new Set(configured.map(encryptionKeyId));
  const where = keyFromEnvironment() ? "ENCRYPTION_KEY" : encryptionKeyFile();
  for (const { column, keyIds, unnamed } of used) {
    const missing = keyIds.find((id) => !known.has(id));
    if (missing)
      throw new KeyCustodyError(
        `The encryption key does not fit the data: ${column.label} are encrypted with key ${missing}, which neither ${where} nor ENCRYPTION_KEYS_PREVIOUS holds. Set the key they were written with (an earlier one in ENCRYPTION_KEYS_PREVIOUS).`,
      );
    if (unnamed && !opens(unnamed.value, column.context(unnamed.key)))
      throw new KeyCustodyError(
        `The encryption key does not fit the data: ${column.label} were encrypted with a key that neither ${where} nor ENCRYPTION_KEYS_PREVIOUS holds. Set the key they were written with (an earlier one in ENCRYPTION_KEYS_PREVIOUS).`,
      );
  }
}

/** Whether a configured key opens `stored` (a v1 ciphertext names no key: trying is the only way to know). */
function opens(stored: string, context: string): boolean {
  try {
    decryptSecret(stored, context);
    return true;
  } catch (error) {
    if (error instanceof MissingKeyError) return false;
    throw error;
  }
}

/**
 * A generated audit signing key is never used where checkpoints exist: they were signed by a key that
 * must go on signing (its file), or by one the operator replaces on purpose (AUDIT_SIGNING_KEY).
 */
async function checkAuditSigningKey() {
  if (env().AUDIT_SIGNING_KEY) return;
  const file = path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
  if (existsSync(file)) return;
  const [signed] = await rawQuery<{ keyId: string }>(`SELECT "keyId" AS "keyId" FROM "AuditCheckpoint" LIMIT 1`);
  if (!signed) return;
  throw new KeyCustodyError(
    `No audit signing key: AUDIT_SIGNING_KEY is not set and ${file} does not exist, but the audit trail has checkpoints signed by ${signed.keyId}. Restore ${AUDIT_SIGNING_KEY_FILE} from the backup, or set AUDIT_SIGNING_KEY to sign from now on with a key of your choosing.`,
  );
}
