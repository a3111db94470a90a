import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptionKey, encryptSecret, resetEncryptionKey } from "@/lib/auth/encryption";
import { dataDirectory, resetEnv } from "@/lib/env";

const keyFile = () => path.join(dataDirectory(), "totp-encryption.key");

/** Replaces the first character of one dot-separated part with a different base64url character. */
function tamper(stored: string, part: number): string {
  const parts = stored.split(".");
  const text = parts[part]!;
  parts[part] = (text[0] === "A" ? "B" : "A") + text.slice(1);
  return parts.join(".");
}

afterEach(() => {
  delete process.env.TOTP_ENCRYPTION_KEY;
  resetEnv();
  resetEncryptionKey();
});

describe("encryptSecret / decryptSecret", () => {
  it("round-trips a secret", () => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain("JBSWY3DPEHPK3PXP");
    expect(decryptSecret(stored, "emp_1")).toBe("JBSWY3DPEHPK3PXP");
  });

  // Regression: an empty plaintext encrypted to an empty data part that decryption refused.
  it("round-trips an empty plaintext", () => {
    expect(decryptSecret(encryptSecret("", "ctx"), "ctx")).toBe("");
  });

  it("round-trips non-ASCII plaintext", () => {
    expect(decryptSecret(encryptSecret("sécret ✓", "ctx"), "ctx")).toBe("sécret ✓");
  });

  it("gives a different ciphertext each time (random IV)", () => {
    const a = encryptSecret("same", "emp_1");
    const b = encryptSecret("same", "emp_1");
    expect(a).not.toBe(b);
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
  });

  it("refuses a ciphertext decrypted under another context", () => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(() => decryptSecret(stored, "emp_2")).toThrow();
    expect(() => decryptSecret(stored, "")).toThrow();
  });

  it.each([
    ["IV", 1],
    ["data", 2],
    ["tag", 3],
  ])("refuses a ciphertext with a tampered %s", (_, part) => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(() => decryptSecret(tamper(stored, part), "emp_1")).toThrow();
  });

  it.each(["", "v1", "v2.a.b.c", "v1..b.c", "v1.a.b.", "plain text"])("refuses the malformed value %j", (stored) => {
    expect(() => decryptSecret(stored, "emp_1")).toThrow();
  });
});

describe("encryptionKey", () => {
  it("generates a 32-byte key file with mode 0600 in the data directory", () => {
    rmSync(keyFile(), { force: true });
    resetEncryptionKey();
    const key = encryptionKey();
    expect(key).toHaveLength(32);
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile(), "utf8").trim(), "base64").equals(key)).toBe(true);
  });

  it("reuses the key file after resetEncryptionKey()", () => {
    resetEncryptionKey();
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    const before = readFileSync(keyFile(), "utf8");
    const key = encryptionKey();
    resetEncryptionKey();
    expect(encryptionKey().equals(key)).toBe(true);
    expect(readFileSync(keyFile(), "utf8")).toBe(before);
    expect(decryptSecret(stored, "emp_1")).toBe("JBSWY3DPEHPK3PXP");
  });

  it("tightens an existing key file to mode 0600", () => {
    encryptionKey();
    chmodSync(keyFile(), 0o644);
    resetEncryptionKey();
    encryptionKey();
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
  });

  it("refuses a key file that does not hold a 32-byte key", () => {
    encryptionKey();
    const original = readFileSync(keyFile(), "utf8");
    try {
      writeFileSync(keyFile(), Buffer.alloc(16).toString("base64") + "\n");
      resetEncryptionKey();
      expect(() => encryptionKey()).toThrow(/32-byte/);
    } finally {
      writeFileSync(keyFile(), original);
    }
  });

  it("uses TOTP_ENCRYPTION_KEY when set, instead of the key file", () => {
    const fileKey = encryptionKey();
    const fromFile = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    const hex = randomBytes(32).toString("hex");
    process.env.TOTP_ENCRYPTION_KEY = hex;
    resetEnv();
    resetEncryptionKey();

    const key = encryptionKey();
    expect(key.equals(Buffer.from(hex, "hex"))).toBe(true);
    expect(key.equals(fileKey)).toBe(false);
    const fromEnv = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(decryptSecret(fromEnv, "emp_1")).toBe("JBSWY3DPEHPK3PXP");
    expect(() => decryptSecret(fromFile, "emp_1")).toThrow();

    delete process.env.TOTP_ENCRYPTION_KEY;
    resetEnv();
    resetEncryptionKey();
    expect(encryptionKey().equals(fileKey)).toBe(true);
    expect(() => decryptSecret(fromEnv, "emp_1")).toThrow();
  });

  it("accepts a base64 TOTP_ENCRYPTION_KEY", () => {
    const raw = randomBytes(32);
    process.env.TOTP_ENCRYPTION_KEY = raw.toString("base64");
    resetEnv();
    resetEncryptionKey();
    expect(encryptionKey().equals(raw)).toBe(true);
  });
});
