import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { hash as argon2Hash, parseOptions, verify as argon2Verify } from "@node-rs/argon2";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { parseWebConcurrency } from "@/lib/web-concurrency.mjs";

// argon2id at OWASP's first recommendation (m=19 MiB, t=2, p=1), stored as the PHC string
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash), so each hash carries its own parameters. Under the
// test runner only, PASSWORD_HASH_COST=test picks a trivial cost instead (lib/env.ts).
// Hashes made before argon2id are scrypt (scrypt$N$r$p$salt$key): they still verify, and sign-in
// replaces them (needsRehash) the next time the password is proven.
type Cost = { memoryCost: number; timeCost: number; parallelism: number };
export const ARGON2_COSTS = {
  production: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 256, timeCost: 1, parallelism: 1 },
} satisfies Record<string, Cost>;
const ARGON2ID = 2; // Algorithm.Argon2id: a const enum, which isolated modules cannot import.
const VERSION_0x13 = 1; // Version.V0x13, the current one.
const OUTPUT_LENGTH = 32;
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

/**
 * At most HASHING_SLOTS hashes or verifications run at once (each takes a CPU core and 19 MiB), and
 * at most HASHING_QUEUE more wait for a slot. Past that a caller is answered 429 at once: a burst of
 * sign-ins cannot pile up unbounded work (and memory) in front of the real ones, and the sign-in
 * throttle refunds the attempt, since no password was checked.
 */
export const HASHING_SLOTS = Math.max(1, Math.floor(Math.min(4, availableParallelism()) / workerProcesses()));
export const HASHING_QUEUE = 32;

/** Under WEB_CONCURRENCY the machine's slots are shared out among the workers (each counts only its own). */
function workerProcesses(): number {
  const parsed = parseWebConcurrency(process.env.WEB_CONCURRENCY);
  return "workers" in parsed ? parsed.workers : 1;
}
let running = 0;
const waiting: Array<() => void> = [];

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHING_SLOTS) {
    if (waiting.length >= HASHING_QUEUE) {
      throw new DomainError(
        "rate_limited",
        "The service is busy checking passwords; try again in a moment",
        undefined,
        { retryAfter: 1 },
      );
    }
    // The slot is handed over by the finishing holder (running stays counted), so no newcomer can take it first.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** How many hashes run and wait now (for tests and the bench). */
export function hashingLoad() {
  return { running, waiting: waiting.length };
}

const currentCost = (): Cost => ARGON2_COSTS[env().PASSWORD_HASH_COST];

export async function hashPassword(password: string): Promise<string> {
  const cost = currentCost();
  return withHashingSlot(() =>
    argon2Hash(password.normalize("NFKC"), {
      ...cost,
      algorithm: ARGON2ID,
      version: VERSION_0x13,
      outputLen: OUTPUT_LENGTH,
    }),
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const normalized = password.normalize("NFKC");
  if (stored.startsWith("$argon2id$")) {
    return withHashingSlot(() => argon2Verify(stored, normalized).catch(() => false));
  }
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !N || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await withHashingSlot(() =>
    scryptDerive(normalized, Buffer.from(salt, "base64"), expected.length, {
      N: Number(N),
      r: Number(r),
      p: Number(p),
    }),
  );
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a hash that just verified should be replaced: not argon2id, or not at today's cost. */
export function needsRehash(stored: string): boolean {
  if (!stored.startsWith("$argon2id$")) return true;
  try {
    const options = parseOptions(stored);
    const cost = currentCost();
    return (
      options.algorithm !== ARGON2ID ||
      options.version !== VERSION_0x13 ||
      options.memoryCost !== cost.memoryCost ||
      options.timeCost !== cost.timeCost ||
      options.parallelism !== cost.parallelism ||
      options.outputLen !== OUTPUT_LENGTH
    );
  } catch {
    return true;
  }
}

/** The scrypt of stored legacy hashes; null when the stored parameters are unusable. */
function scryptDerive(
  password: string,
  salt: Buffer,
  length: number,
  cost: { N: number; r: number; p: number },
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    try {
      scrypt(password, salt, length || 32, { ...cost, maxmem: 256 * 1024 * 1024 }, (error, key) =>
        resolve(error ? null : key),
      );
    } catch {
      resolve(null); // Parameters scrypt refuses outright (N not a power of two, say).
    }
  });
}

/**
 * A hash of nothing anyone knows, verified against for unknown e-mails so timing does not reveal
 * which exist. Made once per cost; a failed attempt (a full hashing queue) is not remembered.
 */
const decoys = new Map<string, Promise<string>>();
export function decoyPasswordHash(): Promise<string> {
  const level = env().PASSWORD_HASH_COST;
  let decoy = decoys.get(level);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString("hex"));
    decoys.set(level, decoy);
    decoy.catch(() => decoys.delete(level));
  }
  return decoy;
}
