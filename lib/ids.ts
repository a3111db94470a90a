import { randomBytes } from "node:crypto";

export type IdPrefix = "acct" | "key" | "du" | "emp" | "txn" | "va" | "rcp" | "tr" | "ir" | "sub" | "ben" | "agr" | "ses" | "rc" | "aud" | "we" | "evt";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";

/** An opaque id such as `key_3k9x...`: a type prefix and 20 random base36 characters (~103 bits). */
export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(20);
  let out = "";
  for (const byte of bytes) out += alphabet[byte % 36];
  return `${prefix}_${out}`;
}
