import { cleanUserAgent, recordKeyUse } from "@/lib/api-keys/last-use";
import { readKeyForCheck, type KeyCheckRow } from "@/lib/api-keys/store";
import { DomainError } from "@/lib/errors";
import { looksLikeApiKey } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { ipInRanges } from "@/lib/net/ip";
import { permissionList, type Permission } from "@/lib/auth/permissions";
import { isString, jsonNames } from "@/lib/db/json";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { RateLimit } from "@/lib/api-keys/schemas";

const TOUCH_EVERY_MS = 60_000;

/**
 * A presented key that passed every check. `serviceAccount`: the account its request's
 * Service-Account-Id names, looked up with the key (one statement for both): whether it is an
 * account of the key's platform.
 */
export type VerifiedKey = {
  id: string;
  accountId: string;
  platformId: string;
  permissions: readonly Permission[];
  /** Its own rate limit, or else its platform's default (read with the key, in the same statement). */
  rateLimit: RateLimit;
  serviceAccount?: { id: string; inPlatform: boolean };
};

/**
 * The one ordered check for a presented key: unknown or revoked -> expired -> IP allowlist.
 * Every refusal is a DomainError, so the HTTP mapping happens in one place.
 */
export async function verifyApiKey({
  secret,
  ip,
  userAgent = null,
  serviceAccountId = null,
  now = Date.now(),
}: {
  secret: string;
  ip: string | null;
  /** The request's User-Agent, kept as the key's lastUsedUserAgent when its last use is written. */
  userAgent?: string | null;
  /** The request's Service-Account-Id, when it names an account id: looked up in the same statement. */
  serviceAccountId?: string | null;
  now?: number;
}): Promise<VerifiedKey> {
  // A mistyped or made-up token (wrong shape, or a checksum that fails) costs no query, and is
  // refused as an unknown key is: nothing tells a prober which check it failed.
  if (!looksLikeApiKey(secret)) throw invalidKey();
  // One indexed read (unique secretHash) joined to the account's platform, raw (lib/api-keys/store.ts):
  // it runs on every key-authenticated request. Times stay ISO strings, compared as milliseconds.
  const key = await readKeyForCheck(sha256(secret), serviceAccountId);
  if (!key) throw invalidKey();
  const verified = checkKey(key, ip, now, serviceAccountId);
  // The last use is for people, not for auditing: a write per minute per key keeps requests read-only.
  if (key.lastUsedAt === null || now - Date.parse(key.lastUsedAt) > TOUCH_EVERY_MS)
    await recordKeyUse(key.id, { at: now, ip, userAgent: cleanUserAgent(userAgent) }, TOUCH_EVERY_MS);
  return verified;
}

const invalidKey = () => new DomainError("unauthenticated", "Invalid, revoked or expired API key");

function checkKey(
  key: Readonly<KeyCheckRow>,
  ip: string | null,
  now: number,
  serviceAccountId: string | null,
): VerifiedKey {
  const refuse = (error: DomainError) => {
    error.actor = { type: "api_key", id: key.id, platformId: key.platformId, accountId: key.accountId };
    return error;
  };
  if (key.revokedAt !== null || Date.parse(key.expiresAt) <= now) throw refuse(invalidKey());
  const allowlist = parseAllowlist(key.cidrAllowlist);
  if (allowlist.length > 0 && (ip === null || !ipInRanges(ip, allowlist))) {
    throw refuse(new DomainError("ip_not_allowed", "This API key may not be used from this IP address"));
  }
  const verified: VerifiedKey = {
    id: key.id,
    accountId: key.accountId,
    platformId: key.platformId,
    permissions: permissionList(key.permissions),
    rateLimit: rateLimitOfKey(key),
  };
  if (serviceAccountId !== null)
    verified.serviceAccount = { id: serviceAccountId, inPlatform: key.namedAccountId === serviceAccountId };
  return verified;
}

/** The key's own limit when it has one, else its platform's default. */
const rateLimitOfKey = (key: Readonly<KeyCheckRow>): RateLimit =>
  key.rateLimitRequests !== null && key.rateLimitPerSeconds !== null
    ? { requests: key.rateLimitRequests, perSeconds: key.rateLimitPerSeconds }
    : { requests: key.defaultKeyRateLimitRequests, perSeconds: key.defaultKeyRateLimitPerSeconds };

/** A key's allowlist, parsed once per distinct text (keys are few; requests are many). */
const allowlists = new Map<string, readonly string[]>();
function parseAllowlist(stored: Prisma.JsonValue): readonly string[] {
  if (typeof stored !== "string") return jsonNames(stored, isString);
  const text = stored;
  let parsed = allowlists.get(text);
  if (!parsed) {
    parsed = jsonNames(text, isString);
    if (allowlists.size > 10_000) allowlists.clear();
    allowlists.set(text, parsed);
  }
  return parsed;
}
