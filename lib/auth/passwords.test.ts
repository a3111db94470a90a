import { randomBytes, scryptSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import {
  HASHING_QUEUE,
  HASHING_SLOTS,
  hashingLoad,
  hashPassword,
  needsRehash,
  verifyPassword,
} from "@/lib/auth/passwords";

// Every argon2 call, watched: how many run at the same moment (the cap is on hashes in flight).
const argon2Calls = vi.hoisted(() => ({ inFlight: 0, peak: 0 }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@node-rs/argon2")>();
  const watched =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      argon2Calls.inFlight += 1;
      argon2Calls.peak = Math.max(argon2Calls.peak, argon2Calls.inFlight);
      try {
        // Long enough that every request of a burst has arrived before the first finishes.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await work(...args);
      } finally {
        argon2Calls.inFlight -= 1;
      }
    };
  return { ...actual, hash: watched(actual.hash), verify: watched(actual.verify) };
});

/** The scrypt format hashes were stored in before argon2id. */
const scryptHash = (password: string, N = 1024) => {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1 });
  return `scrypt$${N}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
};

// The suite hashes at test cost (lib/testing/setup.ts); these check both costs and that each hash
// carries its own parameters, so hashes made at one cost verify whatever the current setting is.
describe("password hashing", () => {
  afterEach(() => {
    process.env.PASSWORD_HASH_COST = "test";
    resetEnv();
  });

  // A few production-cost hashes take a while on a slow machine: this test's own timeout allows for it.
  it(
    "hashes with argon2id at OWASP's first recommendation by default (PHC string), and verifies only the right password",
    { timeout: 120_000 },
    async () => {
      delete process.env.PASSWORD_HASH_COST;
      resetEnv();
      const stored = await hashPassword("a long passphrase");
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
      expect(await verifyPassword("a long passphrase", stored)).toBe(true);
      expect(await verifyPassword("a long passphrasf", stored)).toBe(false);
      expect(needsRehash(stored)).toBe(false);
    },
  );

  it("hashes at a trivial cost under PASSWORD_HASH_COST=test; the hash still verifies at the production setting", async () => {
    const stored = await hashPassword("a long passphrase");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(await verifyPassword("a long passphrase", stored)).toBe(true);
    expect(await verifyPassword("another passphrase", stored)).toBe(false);
    delete process.env.PASSWORD_HASH_COST;
    resetEnv();
    expect(await verifyPassword("a long passphrase", stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it("still verifies the scrypt hashes stored before argon2id, and marks them for re-hashing", async () => {
    const stored = scryptHash("an older passphrase");
    expect(await verifyPassword("an older passphrase", stored)).toBe(true);
    expect(await verifyPassword("an older passphrasf", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(await hashPassword("an older passphrase"))).toBe(false);
  });

  it("salts every hash and normalises the password (NFKC) first", async () => {
    const [first, second] = await Promise.all([hashPassword("same passphrase!"), hashPassword("same passphrase!")]);
    expect(first).not.toBe(second);
    // "ﬁ" (U+FB01) is "fi" after NFKC.
    expect(await verifyPassword("the ﬁrst passphrase", await hashPassword("the first passphrase"))).toBe(true);
  });

  it.each([
    "",
    "bcrypt$whatever",
    "scrypt$1024$8$1$c2FsdA==",
    "scrypt$3$8$1$c2FsdA==$c2FsdA==",
    "$argon2id$v=19$m=256,t=1,p=1$bad",
    "plain text",
  ])("refuses a malformed stored hash %j", async (stored) => {
    expect(await verifyPassword("anything at all", stored)).toBe(false);
  });
});

describe("the hashing cap", () => {
  afterEach(() => {
    argon2Calls.peak = 0;
  });

  it(`runs at most ${HASHING_SLOTS} hashes or verifications at once; the rest wait their turn`, async () => {
    const stored = await hashPassword("a long passphrase");
    argon2Calls.peak = 0;
    const burst = HASHING_SLOTS + HASHING_QUEUE;
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        i % 2 ? hashPassword(`passphrase ${i}`) : verifyPassword("a long passphrase", stored),
      ),
    );
    expect(argon2Calls.peak).toBe(HASHING_SLOTS);
    expect(results.filter((result) => result === true)).toHaveLength(burst / 2);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("shares the machine's hashing slots out among WEB_CONCURRENCY workers (at least one each)", async () => {
    const { availableParallelism } = await import("node:os");
    const machine = Math.min(4, availableParallelism());
    const slotsWith = async (workers: string) => {
      vi.resetModules();
      vi.stubEnv("WEB_CONCURRENCY", workers);
      try {
        return (await import("@/lib/auth/passwords")).HASHING_SLOTS;
      } finally {
        vi.unstubAllEnvs();
        vi.resetModules();
      }
    };
    expect(await slotsWith("")).toBe(machine);
    expect(await slotsWith("2")).toBe(Math.max(1, Math.floor(machine / 2)));
    expect(await slotsWith("32")).toBe(1);
  });

  it("answers 429 at once when the queue is full, instead of queueing without bound; then works again", async () => {
    const burst = HASHING_SLOTS + HASHING_QUEUE + 10;
    const results = await Promise.allSettled(Array.from({ length: burst }, (_, i) => hashPassword(`passphrase ${i}`)));
    const refused = results
      .filter((result) => result.status === "rejected")
      .map((result) => (result as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(10);
    for (const error of refused) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: "rate_limited", retryAfter: 1 });
    }
    expect(argon2Calls.peak).toBe(HASHING_SLOTS);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0 });
    expect(await hashPassword("after the burst")).toMatch(/^\$argon2id\$/);
  });
});
