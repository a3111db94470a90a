import { db } from "@/lib/db";
import { rawRead } from "@/lib/db/raw-read";
import { ApiError } from "@/lib/http/api-error";
import { looksLikeApiKey } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { ipInRanges } from "@/lib/net/ip";
import { permissionList, type Permission } from "@/lib/auth/permissions";
import { andThen, type MaybePromise } from "@/lib/maybe-promise";
import { isString, jsonNames } from "@/lib/db/json";
import type { Account, ApiKey, Prisma } from "@/lib/generated/prisma/client";

const TOUCH_EVERY_MS = 60_000;

/** A presented key that passed every check. */
export type VerifiedKey = { id: string; accountId: string; platformId: string; permissions: readonly Permission[] };

/**
 * The one ordered check for a presented key: unknown or revoked -> expired -> IP allowlist.
 * Every refusal is an ApiError (thrown at once on SQLite), so the HTTP mapping happens in one place.
 * Answers at once when the read did and no lastUsedAt is due (lib/maybe-promise.ts).
 */
export function verifyApiKey({ secret, ip, now = Date.now() }: { secret: string; ip: string | null; now?: number }): MaybePromise<VerifiedKey> {
  if (!looksLikeApiKey(secret)) throw invalidKey();
  // One indexed read (unique secretHash) joined to the account's platform, raw (lib/db/raw-read.ts):
  // it runs on every key-authenticated request. Times stay ISO strings, compared as milliseconds.
  const rows = rawRead<KeyRow>(
    `SELECT k."id", k."accountId", a."platformId", k."expiresAt", k."revokedAt", k."lastUsedAt", k."cidrAllowlist", k."permissions"
     FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."secretHash" = :secretHash`,
    { secretHash: sha256(secret) },
  );
  return andThen(rows, ([key]) => checkKey(key, ip, now));
}

const invalidKey = () => new ApiError("err_unauthenticated", "Invalid, revoked or expired API key");

function checkKey(key: Readonly<KeyRow> | undefined, ip: string | null, now: number): MaybePromise<VerifiedKey> {
  if (!key) throw invalidKey();
  const refuse = (error: ApiError) => {
    error.actor = { type: "api_key", id: key.id, platformId: key.platformId, accountId: key.accountId };
    return error;
  };
  if (key.revokedAt !== null || Date.parse(key.expiresAt) <= now) throw refuse(invalidKey());
  const allowlist = parseAllowlist(key.cidrAllowlist);
  if (allowlist.length > 0 && (ip === null || !ipInRanges(ip, allowlist))) {
    throw refuse(new ApiError("err_ip_not_allowed", "This API key may not be used from this IP address"));
  }
  const verified = { id: key.id, accountId: key.accountId, platformId: key.platformId, permissions: permissionList(key.permissions) };
  // lastUsedAt is for people, not for auditing: a write per minute per key keeps requests read-only.
  if (key.lastUsedAt !== null && now - Date.parse(key.lastUsedAt) <= TOUCH_EVERY_MS) return verified;
  return db()
    .apiKey.updateMany({
      where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - TOUCH_EVERY_MS) } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .then(() => verified);
}

/** The key's row as the raw read gives it: DateTime columns as ISO-8601 text, Json columns as JSON text. */
type KeyRow = Pick<ApiKey, "id" | "accountId" | "cidrAllowlist" | "permissions"> &
  Pick<Account, "platformId"> & { expiresAt: string; revokedAt: string | null; lastUsedAt: string | null };

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
