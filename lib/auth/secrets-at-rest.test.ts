import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENCRYPTED_COLUMNS } from "@/lib/auth/secrets-at-rest";
import { rawQuery } from "@/lib/db/raw-sql";

// The list of encrypted columns is what start-up's key check and the re-encryption walk: a secret
// encrypted somewhere it does not name would be left under an old key, and found missing only when the
// old key is gone. These checks fail when code starts encrypting in a file not known here.

const root = process.cwd();

/** Files that encrypt, and the columns (table.column) they write; the audit key's file is not a column. */
const ENCRYPTING_FILES: Record<string, string[]> = {
  "lib/auth/two-factor.ts": ["Employee.totpSecret", "Employee.totpPendingSecret"],
  "lib/webhooks/webhook-endpoints.ts": ["WebhookEndpoint.privateKey"],
  "lib/sso/connection.ts": ["SsoConnection.clientSecretEncrypted"],
  "lib/http/idempotency.ts": ["IdempotencyKey.body"],
  "lib/audit/seal/signing-key.ts": [],
  "lib/auth/reencrypt.ts": [],
};

function sourceFiles(): string[] {
  const found: string[] = [];
  for (const top of ["lib", "app", "scripts"])
    for (const entry of readdirSync(path.join(root, top), { recursive: true, encoding: "utf8" })) {
      const relative = `${top}/${entry.split(path.sep).join("/")}`;
      if (/\.(ts|tsx|mts|mjs)$/.test(relative) && !/\.test\.tsx?$/.test(relative) && !relative.includes("generated/"))
        found.push(relative);
    }
  return found;
}

describe("the encrypted columns", () => {
  it("every file that encrypts is known, and the columns it writes are in the list", () => {
    const encrypting = sourceFiles().filter(
      (file) =>
        file !== "lib/auth/encryption.ts" && /\bencryptSecret\(/.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(encrypting.sort()).toEqual(Object.keys(ENCRYPTING_FILES).sort());
    const listed = ENCRYPTED_COLUMNS.map((column) => `${column.table}.${column.column}`).sort();
    expect(Object.values(ENCRYPTING_FILES).flat().sort()).toEqual(listed);
  });

  it("names tables and columns that exist", async () => {
    for (const column of ENCRYPTED_COLUMNS) {
      const keys = column.keys.map((key) => `"${key}"`).join(", ");
      await expect(
        rawQuery(`SELECT ${keys}, "${column.column}" FROM "${column.table}" LIMIT 1`),
        column.label,
      ).resolves.toBeDefined();
    }
  });
});
