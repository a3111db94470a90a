import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createCipheriv } from "node:crypto";
import {
  ciphertextKeyId,
  decryptSecret,
  encryptionKey,
  encryptionKeyId,
  encryptSecret,
  keyRing,
  MissingKeyError,
  resetEncryptionKey,
} from "@/lib/auth/encryption";
import { parseEnv } from "@/lib/env";
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
  delete process.env.ENCRYPTION_KEY;
  delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  resetEnv();
  resetEncryptionKey();
});

describe("encryptSecret / decryptSecret", () => {
  it("round-trips a secret", () => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(stored).toMatch(/^v2\.[0-9a-f]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(stored.split(".")[1]).toBe(keyRing().current.id);
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
    expect(a.split(".")[2]).not.toBe(b.split(".")[2]);
  });

  it("refuses a ciphertext decrypted under another context", () => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(() => decryptSecret(stored, "emp_2")).toThrow();
    expect(() => decryptSecret(stored, "")).toThrow();
  });

  it.each([
    ["key id", 1],
    ["IV", 2],
    ["data", 3],
    ["tag", 4],
  ])("refuses a ciphertext with a tampered %s", (_, part) => {
    const stored = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    expect(() => decryptSecret(tamper(stored, part), "emp_1")).toThrow();
  });

  it.each(["", "v1", "v2.a.b.c", "v2..a.b.c", "v2.k.a.b.c.d", "v1..b.c", "v1.a.b.", "v3.k.a.b.c", "plain text"])(
    "refuses the malformed value %j",
    (stored) => {
      expect(() => decryptSecret(stored, "emp_1")).toThrow();
    },
  );
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

/** Sets the key variables (undefined: unset) and forgets the loaded keys. */
function useKeys(keys: { current?: Buffer; previous?: Buffer[] }) {
  if (keys.current) process.env.ENCRYPTION_KEY = keys.current.toString("hex");
  else delete process.env.ENCRYPTION_KEY;
  if (keys.previous)
    process.env.ENCRYPTION_KEYS_PREVIOUS = keys.previous.map((key) => key.toString("base64")).join(",");
  else delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  resetEnv();
  resetEncryptionKey();
}

/** A ciphertext as the service wrote it before ciphertexts named their key. */
function v1Ciphertext(plaintext: string, context: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, data, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

describe("keys that rotate", () => {
  const [oldKey, newKey, otherKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];

  it("names its key in every ciphertext; the id is a hash, not the key", () => {
    useKeys({ current: oldKey });
    const stored = encryptSecret("s", "ctx");
    expect(ciphertextKeyId(stored)).toBe(encryptionKeyId(oldKey));
    expect(encryptionKeyId(oldKey)).not.toBe(encryptionKeyId(newKey));
    expect(stored).not.toContain(oldKey.toString("hex").slice(0, 16));
  });

  it("reads what an earlier key wrote while it is in ENCRYPTION_KEYS_PREVIOUS, and writes under the new one", () => {
    useKeys({ current: oldKey });
    const written = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1");
    useKeys({ current: newKey, previous: [otherKey, oldKey] });
    expect(decryptSecret(written, "emp_1")).toBe("JBSWY3DPEHPK3PXP");
    expect(ciphertextKeyId(encryptSecret("x", "emp_1"))).toBe(encryptionKeyId(newKey));
    // Without it, the ciphertext names the key that is missing.
    useKeys({ current: newKey });
    expect(() => decryptSecret(written, "emp_1")).toThrow(MissingKeyError);
    expect(() => decryptSecret(written, "emp_1")).toThrow(encryptionKeyId(oldKey));
  });

  it("reads a ciphertext that names no key (v1) with whichever configured key opens it", () => {
    const written = v1Ciphertext("JBSWY3DPEHPK3PXP", "emp_1", oldKey);
    expect(ciphertextKeyId(written)).toBeNull();
    useKeys({ current: newKey, previous: [oldKey] });
    expect(decryptSecret(written, "emp_1")).toBe("JBSWY3DPEHPK3PXP");
    expect(() => decryptSecret(written, "emp_2")).toThrow(MissingKeyError);
    useKeys({ current: newKey });
    expect(() => decryptSecret(written, "emp_1")).toThrow(MissingKeyError);
  });

  it("refuses an altered ciphertext under its own key (not a missing key)", () => {
    useKeys({ current: oldKey });
    const parts = encryptSecret("JBSWY3DPEHPK3PXP", "emp_1").split(".");
    parts[3] = (parts[3]![0] === "A" ? "B" : "A") + parts[3]!.slice(1);
    const error = (() => {
      try {
        decryptSecret(parts.join("."), "emp_1");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MissingKeyError);
  });

  it("ENCRYPTION_KEY is the name; TOTP_ENCRYPTION_KEY is accepted, and the two differing are refused", () => {
    const hex = (key: Buffer) => key.toString("hex");
    expect(parseEnv({ TOTP_ENCRYPTION_KEY: hex(oldKey) }).TOTP_ENCRYPTION_KEY).toBe(hex(oldKey));
    expect(() =>
      parseEnv({ ENCRYPTION_KEY: hex(oldKey), TOTP_ENCRYPTION_KEY: oldKey.toString("base64") }),
    ).not.toThrow();
    expect(() => parseEnv({ ENCRYPTION_KEY: hex(oldKey), TOTP_ENCRYPTION_KEY: hex(newKey) })).toThrow(
      /TOTP_ENCRYPTION_KEY: is the earlier name of ENCRYPTION_KEY/,
    );
    expect(() => parseEnv({ ENCRYPTION_KEYS_PREVIOUS: `${hex(oldKey)},short` })).toThrow(/ENCRYPTION_KEYS_PREVIOUS/);
    process.env.TOTP_ENCRYPTION_KEY = hex(oldKey);
    resetEnv();
    resetEncryptionKey();
    expect(encryptionKey().equals(oldKey)).toBe(true);
  });
});
