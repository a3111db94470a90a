import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEncryptionKey } from "@/lib/auth/encryption";
import { auditSigningKey, recordSigningKey, resetAuditSigningKey, signingKeyId } from "@/lib/audit/seal/signing-key";
import { db } from "@/lib/db";
import { dataDirectory, env, EnvError, resetEnv } from "@/lib/env";

const keyFile = () => path.join(dataDirectory(), "audit-signing.key");

afterEach(() => {
  delete process.env.AUDIT_SIGNING_KEY;
  delete process.env.TOTP_ENCRYPTION_KEY;
  resetEnv();
  resetEncryptionKey();
  resetAuditSigningKey();
});

const ed25519Pem = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

describe("the audit signing key", () => {
  it("is generated once into the data directory, mode 0600, encrypted: the file holds no PEM", () => {
    const key = auditSigningKey();
    const stored = readFileSync(keyFile(), "utf8");
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(stored).toMatch(/^v2\./);
    expect(stored).not.toContain("PRIVATE KEY");
    // Read again (a restart): the same key, whose id is derived from its public half.
    resetAuditSigningKey();
    const again = auditSigningKey();
    expect(again.id).toBe(key.id);
    expect(again.id).toBe(signingKeyId(createPublicKey(again.publicKeyPem)));
    expect(again.id).toMatch(/^ask_[0-9a-f]{24}$/);
    const signature = sign(null, Buffer.from("checkpoint"), again.privateKey);
    expect(verify(null, Buffer.from("checkpoint"), key.publicKeyPem, signature)).toBe(true);
  });

  it("cannot be read with another encryption key: start-up says which", () => {
    auditSigningKey();
    resetAuditSigningKey();
    process.env.TOTP_ENCRYPTION_KEY = "ab".repeat(32);
    resetEnv();
    resetEncryptionKey();
    expect(() => auditSigningKey()).toThrow(
      /audit-signing\.key cannot be read with the encryption key \(ENCRYPTION_KEY/,
    );
  });

  it("is AUDIT_SIGNING_KEY when set (escaped line breaks allowed): a rotation to a new key id", () => {
    const generated = auditSigningKey();
    const pem = ed25519Pem();
    process.env.AUDIT_SIGNING_KEY = pem.trim().replace(/\n/g, "\\n");
    resetEnv();
    resetAuditSigningKey();
    const configured = auditSigningKey();
    expect(configured.id).not.toBe(generated.id);
    expect(configured.publicKeyPem).toBe(
      createPublicKey(pem).export({ type: "spki", format: "pem" }).toString().trim(),
    );
  });

  it("refuses an AUDIT_SIGNING_KEY that is not an Ed25519 private key, naming the variable", () => {
    process.env.AUDIT_SIGNING_KEY = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    resetEnv();
    expect(() => env()).toThrow(EnvError);
    expect(() => env()).toThrow(/AUDIT_SIGNING_KEY: must be an Ed25519 private key/);
    process.env.AUDIT_SIGNING_KEY = "not a key";
    resetEnv();
    expect(() => env()).toThrow(/AUDIT_SIGNING_KEY/);
  });

  it("records its public half once, however often it is asked to", async () => {
    const key = auditSigningKey();
    await Promise.all([recordSigningKey(key), recordSigningKey(key), recordSigningKey(key)]);
    const rows = await db().auditSigningKey.findMany({ where: { id: key.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.publicKey).toBe(key.publicKeyPem);
  });
});
