import { db, postgresqlPool } from "@/lib/db";
import { databaseProvider } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";
import { rawRead } from "@/lib/db/raw-read";
import { DomainError } from "@/lib/errors";
import { looksLikeApiKey } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { ipInRanges } from "@/lib/net/ip";
import { permissionList, type Permission } from "@/lib/auth/permissions";
import { andThen, type MaybePromise } from "@/lib/maybe-promise";
import { isString, jsonNames } from "@/lib/db/json";
import type { Account, ApiKey, Prisma } from "@/lib/generated/prisma/client";

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
  serviceAccount?: { id: string; inPlatform: boolean };
};

const KEY_COLUMNS = `k."id", k."accountId", a."platformId", k."expiresAt", k."revokedAt", k."lastUsedAt", k."cidrAllowlist", k."permissions"`;
const KEY_FROM = `FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."secretHash" = :secretHash`;

/**
 * The one ordered check for a presented key: unknown or revoked -> expired -> IP allowlist.
 * Every refusal is a DomainError (thrown at once on SQLite), so the HTTP mapping happens in one place.
 * Answers at once when the read did and no lastUsedAt is due (lib/maybe-promise.ts).
 */
export function verifyApiKey({
  secret,
  ip,
  serviceAccountId = null,
  now = Date.now(),
}: {
  secret: string;
  ip: string | null;
  /** The request's Service-Account-Id, when it names an account id: looked up in the same statement. */
  serviceAccountId?: string | null;
  now?: number;
}): MaybePromise<VerifiedKey> {
  if (!looksLikeApiKey(secret)) throw invalidKey();
  // One indexed read (unique secretHash) joined to the account's platform, raw (lib/db/raw-read.ts):
  // it runs on every key-authenticated request. Times stay ISO strings, compared as milliseconds.
  const secretHash = sha256(secret);
  const rows =
    serviceAccountId === null
      ? rawRead<KeyRow>(`SELECT ${KEY_COLUMNS} ${KEY_FROM}`, { secretHash })
      : rawRead<KeyRow>(
          `SELECT ${KEY_COLUMNS}, (SELECT n."id" FROM "Account" n WHERE n."id" = :named AND n."platformId" = a."platformId") AS "namedAccountId" ${KEY_FROM}`,
          { secretHash, named: serviceAccountId },
        );
  return andThen(rows, ([key]) => checkKey(key, ip, now, serviceAccountId));
}

const invalidKey = () => new DomainError("unauthenticated", "Invalid, revoked or expired API key");

function checkKey(key: Readonly<KeyRow> | undefined, ip: string | null, now: number, serviceAccountId: string | null): MaybePromise<VerifiedKey> {
  if (!key) throw invalidKey();
  const refuse = (error: DomainError) => {
    error.actor = { type: "api_key", id: key.id, platformId: key.platformId, accountId: key.accountId };
    return error;
  };
  if (key.revokedAt !== null || Date.parse(key.expiresAt) <= now) throw refuse(invalidKey());
  const allowlist = parseAllowlist(key.cidrAllowlist);
  if (allowlist.length > 0 && (ip === null || !ipInRanges(ip, allowlist))) {
    throw refuse(new DomainError("ip_not_allowed", "This API key may not be used from this IP address"));
  }
  const verified: VerifiedKey = { id: key.id, accountId: key.accountId, platformId: key.platformId, permissions: permissionList(key.permissions) };
  if (serviceAccountId !== null) verified.serviceAccount = { id: serviceAccountId, inPlatform: key.namedAccountId === serviceAccountId };
  // lastUsedAt is for people, not for auditing: a write per minute per key keeps requests read-only.
  if (key.lastUsedAt !== null && now - Date.parse(key.lastUsedAt) <= TOUCH_EVERY_MS) return verified;
  if (databaseProvider() === "postgresql") {
    touchLater(key.id, now);
    return verified;
  }
  return db()
    .apiKey.updateMany({
      where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - TOUCH_EVERY_MS) } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .then(() => verified);
}

/** The key's row as the raw read gives it: DateTime columns as ISO-8601 text, Json columns as JSON text. */
type KeyRow = Pick<ApiKey, "id" | "accountId" | "cidrAllowlist" | "permissions"> &
  Pick<Account, "platformId"> & { expiresAt: string; revokedAt: string | null; lastUsedAt: string | null; namedAccountId?: string | null };

/** PostgreSQL: the keys used since the last write of lastUsedAt, with when (ms); one copy per process. */
const touches = processGlobal("api-key-touches", () => ({ pending: new Map<string, number>(), timer: undefined as NodeJS.Timeout | undefined }));
const TOUCH_FLUSH_MS = 5_000;

/**
 * PostgreSQL: lastUsedAt is written off the request's path, for every key used in the last few
 * seconds at once (flushKeyTouches), so a key-authenticated read costs its two statements and no more
 * (a round trip to a database across the network costs more than the read itself). SQLite writes it
 * at once, as it always has: a local statement costs no round trip.
 */
function touchLater(id: string, now: number) {
  touches.pending.set(id, now);
  touches.timer ??= setTimeout(() => void flushKeyTouches().catch((error: Error) => console.error(`Could not record when API keys were last used: ${error.message}`)), TOUCH_FLUSH_MS).unref();
}

/** Writes the pending lastUsedAt times in one statement, never moving one back (tests call it to see them at once). */
export async function flushKeyTouches() {
  clearTimeout(touches.timer);
  touches.timer = undefined;
  if (touches.pending.size === 0) return;
  const used = [...touches.pending];
  touches.pending.clear();
  await postgresqlPool().query(
    `UPDATE "ApiKey" k SET "lastUsedAt" = u."at" FROM unnest($1::text[], $2::timestamp(3)[]) AS u("id", "at")
     WHERE k."id" = u."id" AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < u."at")`,
    [used.map(([id]) => id), used.map(([, at]) => new Date(at).toISOString())],
  );
}

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
