import { db } from "@/lib/db";
import { rawRead } from "@/lib/db/raw-read";
import { ApiError } from "@/lib/http/api-error";
import { looksLikeApiKey } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { ipInRanges } from "@/lib/net/ip";
import { parsePermissionList } from "@/lib/auth/permissions";

const TOUCH_EVERY_MS = 60_000;

/**
 * The one ordered check for a presented key: unknown or revoked -> expired -> IP allowlist.
 * Every refusal is an ApiError, so the HTTP mapping happens in one place.
 */
export async function verifyApiKey({ secret, ip, now = new Date() }: { secret: string; ip: string | null; now?: Date }) {
  const invalid = () => new ApiError("err_unauthenticated", "Invalid, revoked or expired API key");
  if (!looksLikeApiKey(secret)) throw invalid();
  const key = await findKeyBySecretHash(sha256(secret));
  if (!key) throw invalid();
  const refuse = (error: ApiError) => {
    error.actor = { type: "api_key", id: key.id, platformId: key.platformId, accountId: key.accountId };
    return error;
  };
  if (key.revokedAt || key.expiresAt <= now) throw refuse(invalid());
  const allowlist = JSON.parse(key.cidrAllowlist) as string[];
  if (allowlist.length > 0 && (ip === null || !ipInRanges(ip, allowlist))) {
    throw refuse(new ApiError("err_ip_not_allowed", "This API key may not be used from this IP address"));
  }
  // lastUsedAt is for people, not for auditing: a write per minute per key keeps requests read-only.
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db().apiKey.updateMany({
      where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - TOUCH_EVERY_MS) } }] },
      data: { lastUsedAt: now },
    });
  }
  return { ...key, permissions: parsePermissionList(key.permissions) };
}

type KeyRow = {
  id: string;
  accountId: string;
  platformId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  cidrAllowlist: string;
  permissions: string;
};

/** One indexed read (unique secretHash) joined to the account's platform, raw (lib/db/raw-read.ts). */
async function findKeyBySecretHash(secretHash: string): Promise<KeyRow | null> {
  const [row] = await rawRead<Omit<KeyRow, "expiresAt" | "revokedAt" | "lastUsedAt"> & Record<"expiresAt" | "revokedAt" | "lastUsedAt", string | null>>(
    `SELECT k."id", k."accountId", a."platformId", k."expiresAt", k."revokedAt", k."lastUsedAt", k."cidrAllowlist", k."permissions"
     FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."secretHash" = :secretHash`,
    { secretHash },
  );
  if (!row) return null;
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return { ...row, expiresAt: date(row.expiresAt)!, revokedAt: date(row.revokedAt), lastUsedAt: date(row.lastUsedAt) };
}
