import { randomFillSync } from "node:crypto";

import type { IdPrefix } from "@/lib/ids/schema";

export type { IdPrefix };

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
/** The largest multiple of 36 a byte can hold: bytes from it up are skipped, so every character is equally likely. */
const UNBIASED_BELOW = 252;

// Random bytes are drawn from the system 4 KiB at a time (one call per ~190 ids instead of one each).
const pool = Buffer.alloc(4096);
let position = pool.length;

/** One byte of the system's CSPRNG, from the pool (ids, request ids, key secrets). */
export function randomByte(): number {
  if (position === pool.length) {
    randomFillSync(pool);
    position = 0;
  }
  return pool[position++]!;
}

/** An opaque id such as `key_3k9x...`: a type prefix and 20 random base36 characters (~103 bits). */
export function newId(prefix: IdPrefix): string {
  let out = "";
  while (out.length < 20) {
    const byte = randomByte();
    if (byte < UNBIASED_BELOW) out += alphabet[byte % 36];
  }
  return `${prefix}_${out}`;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** `count` random bytes as hex, from the same pool (request ids: not secrets, but not guessable either). */
export function randomHex(count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += HEX[randomByte()];
  return out;
}
