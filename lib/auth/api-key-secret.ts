import { randomToken, sha256 } from "@/lib/auth/tokens";

export const API_KEY_PREFIX = "svc_";
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

/** A new key secret: fixed prefix (greppable by secret scanners) and 256 random bits. */
export function newApiKeySecret() {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { secret, prefix: secret.slice(0, DISPLAY_LENGTH), secretHash: sha256(secret) };
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && value.length <= 100;
}
