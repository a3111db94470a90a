import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";

// The suite hashes at test cost (lib/testing/setup.ts); these check both costs and that each hash
// carries its own parameters, so hashes made at one cost verify whatever the current setting is.
describe("password hashing", () => {
  afterEach(() => {
    process.env.PASSWORD_HASH_COST = "test";
    resetEnv();
  });

  // A few production-cost hashes take seconds on a slow machine: this test's own timeout allows for it.
  it("hashes at OWASP's scrypt cost by default, and verifies only the right password", { timeout: 120_000 }, async () => {
    delete process.env.PASSWORD_HASH_COST;
    resetEnv();
    const stored = await hashPassword("a long passphrase");
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword("a long passphrase", stored)).toBe(true);
    expect(await verifyPassword("a long passphrasf", stored)).toBe(false);
  });

  it("hashes at a trivial cost under PASSWORD_HASH_COST=test; the hash still verifies at production setting", async () => {
    const stored = await hashPassword("a long passphrase");
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("a long passphrase", stored)).toBe(true);
    expect(await verifyPassword("another passphrase", stored)).toBe(false);
    delete process.env.PASSWORD_HASH_COST;
    resetEnv();
    expect(await verifyPassword("a long passphrase", stored)).toBe(true);
  });

  it("salts every hash and normalises the password (NFKC) first", async () => {
    const [first, second] = await Promise.all([hashPassword("same passphrase!"), hashPassword("same passphrase!")]);
    expect(first).not.toBe(second);
    // "ﬁ" (U+FB01) is "fi" after NFKC.
    expect(await verifyPassword("the ﬁrst passphrase", await hashPassword("the first passphrase"))).toBe(true);
  });

  it.each(["", "bcrypt$whatever", "scrypt$1024$8$1$c2FsdA==", "plain text"])("refuses a malformed stored hash %j", async (stored) => {
    expect(await verifyPassword("anything at all", stored)).toBe(false);
  });
});
