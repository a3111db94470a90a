import { crc32 } from "node:zlib";

import { sha256 } from "@/lib/auth/tokens";
import { randomByte } from "@/lib/ids/generate";

export const API_KEY_PREFIX = "svc_";
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

// GitHub's token format (github.blog, 2021-04-05, "Behind GitHub's new authentication token formats"):
// prefix, 30 random base62 characters, then the CRC32 (IEEE) of those 30 characters as 6 base62
// characters, left-padded with "0". GitHub never published which text the CRC covers; the secret
// scanners that check GitHub tokens offline compute it over the 30 random characters after the prefix,
// so ours does too: a scanner that knows GitHub's scheme recognises our keys as they are.
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
/** The largest multiple of 62 a byte can hold: bytes from it up are skipped, so every character is equally likely. */
const UNBIASED_BELOW = 248;

/** Keys issued now: `svc_` + 30 random base62 characters (~178 bits) + 6 of checksum. */
const CHECKSUMMED = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
/** Keys issued before the checksum: `svc_` + 32 random bytes as base64url, always 43 characters. */
const UNCHECKSUMMED = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** A new key secret: fixed prefix (greppable by secret scanners), random body, checksum. */
export function newApiKeySecret() {
  const body = randomBase62(BODY_LENGTH);
  const secret = `${API_KEY_PREFIX}${body}${apiKeyChecksum(body)}`;
  return { secret, prefix: secret.slice(0, DISPLAY_LENGTH), secretHash: sha256(secret) };
}

/** The 6-character checksum of a key's 30-character random body: its CRC32 in base62. */
export function apiKeyChecksum(body: string): string {
  let value = crc32(body);
  let out = "";
  // CRC32 < 2^32 < 62^6: six digits always hold it.
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62]! + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/**
 * Whether a presented token could be a key we issued, decided without the database: a key of
 * today's shape whose checksum holds, or one of the earlier shape (those keep working). Anything
 * else, a typo or a made-up token, is refused before any look-up.
 */
export function looksLikeApiKey(value: string): boolean {
  if (CHECKSUMMED.test(value)) {
    const bodyEnd = API_KEY_PREFIX.length + BODY_LENGTH;
    return apiKeyChecksum(value.slice(API_KEY_PREFIX.length, bodyEnd)) === value.slice(bodyEnd);
  }
  return UNCHECKSUMMED.test(value);
}

// The system CSPRNG's bytes, drawn 4 KiB at a time as ids are (lib/ids/generate.ts): a call per key
// would cost more than the rest of issuing it, and a consumed byte is never handed out again.
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < UNBIASED_BELOW) out += BASE62[byte % 62];
  }
  return out;
}
