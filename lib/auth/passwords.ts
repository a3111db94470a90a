import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";

// scrypt at OWASP's recommended cost (N=2^17, r=8, p=1: 128 MiB and 0.3 to 3 s per hash on these
// machines). The parameters are stored with each hash so they can be raised later without breaking
// old ones. Under the test runner only, PASSWORD_HASH_COST=test picks a trivial cost instead (lib/env.ts).
type Cost = { N: number; r: number; p: number };
const COSTS = { production: { N: 2 ** 17, r: 8, p: 1 }, test: { N: 2 ** 10, r: 8, p: 1 } } satisfies Record<string, Cost>;
const KEY_LENGTH = 32;
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...cost, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const cost = COSTS[env().PASSWORD_HASH_COST];
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !N || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing anyone knows, verified against for unknown e-mails so timing does not reveal which exist. */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  return decoy;
}
