import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ciphertextKeyId, decryptSecret, encryptSecret, keyRing } from "@/lib/auth/encryption";
import { ENCRYPTED_COLUMNS, replaceCiphertext, rowsNotUnder, type EncryptedColumn } from "@/lib/auth/secrets-at-rest";
import { AUDIT_SIGNING_KEY_CONTEXT, AUDIT_SIGNING_KEY_FILE } from "@/lib/audit/seal/signing-key";
import { dataDirectory } from "@/lib/env";

// `npm run keys:reencrypt`: every secret at rest rewritten under the current key (ENCRYPTION_KEY), read
// with the key it names (the current one or one of ENCRYPTION_KEYS_PREVIOUS). In batches, each row
// replaced only while it still holds the ciphertext that was read, so the service can go on serving and
// writing: a row it changed meanwhile is already under the current key, or is read again on the next pass.
// Once it reports nothing left, the earlier keys can leave ENCRYPTION_KEYS_PREVIOUS.

export type ReencryptReport = { label: string; rewritten: number }[];

const BATCH = 200;

/** Rewrites every ciphertext not under the current key; what was rewritten, per column and the audit key file. */
export async function reencryptAll({ batchSize = BATCH } = {}): Promise<ReencryptReport> {
  const report: ReencryptReport = [];
  for (const column of ENCRYPTED_COLUMNS)
    report.push({ label: column.label, rewritten: await reencryptColumn(column, batchSize) });
  report.push({ label: `the audit signing key (${AUDIT_SIGNING_KEY_FILE})`, rewritten: reencryptAuditKeyFile() });
  return report;
}

/**
 * One walk over the column in key order, then again from the start while rows are left (one the service
 * changed between the read and the write), at most PASSES times: an instance still writing under an
 * earlier key would otherwise keep it going for ever. Throws when rows are still left then.
 */
async function reencryptColumn(column: EncryptedColumn, batchSize: number): Promise<number> {
  const { id } = keyRing().current;
  let rewritten = 0;
  for (let pass = 0; pass < PASSES; pass += 1) {
    let after: Record<string, string> | undefined;
    for (;;) {
      const rows = await rowsNotUnder(column, id, { limit: batchSize, after });
      if (rows.length === 0) break;
      for (const row of rows) {
        const plaintext = decryptSecret(row.value, column.context(row.key));
        if (await replaceCiphertext(column, row, encryptSecret(plaintext, column.context(row.key)))) rewritten += 1;
      }
      after = rows.at(-1)!.key;
    }
    if ((await rowsNotUnder(column, id, { limit: 1 })).length === 0) return rewritten;
  }
  throw new Error(
    `${column.label}: rows are still written under another key after ${PASSES} passes; is every instance running with ENCRYPTION_KEY set to key ${id}?`,
  );
}

const PASSES = 3;

/** The generated audit signing key's file, rewritten under the current key (atomically); 1 when it was. */
function reencryptAuditKeyFile(): number {
  const file = path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
  if (!existsSync(file)) return 0;
  const stored = readFileSync(file, "utf8").trim();
  if (ciphertextKeyId(stored) === keyRing().current.id) return 0;
  const pem = decryptSecret(stored, AUDIT_SIGNING_KEY_CONTEXT);
  const next = `${file}.reencrypt-${process.pid}`;
  writeFileSync(next, encryptSecret(pem, AUDIT_SIGNING_KEY_CONTEXT) + "\n", { mode: 0o600, flag: "wx" });
  renameSync(next, file);
  return 1;
}
