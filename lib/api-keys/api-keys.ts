import { inTransaction } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { isString, jsonNames } from "@/lib/db/json";
import { newApiKeySecret } from "@/lib/auth/api-key-secret";
import { assertCreatorStillActive } from "@/lib/auth/creator";
import { DEFAULT_KEY_PERMISSIONS, permissionList, sortPermissions, type Permission } from "@/lib/auth/permissions";
import { DomainError, notFound } from "@/lib/errors";
import {
  apiKeySchema,
  presentApiKey,
  rateLimitColumns,
  rateLimitOf,
  type KeyCreator,
  type RateLimit,
  type UpdateApiKeyInput,
} from "@/lib/api-keys/schemas";
import { isoTimestamp, type Rows } from "@/lib/db/raw-read";
import { readKeyList, type KeyListRow } from "@/lib/api-keys/store";
import { immutable, isImmutable } from "@/lib/immutable";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { changeOnce, emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's key is simply not found (404, never 403).

/** Who is issuing or changing keys, and what they may do themselves: keys never get more than that. */
export type KeyIssuer = { type: "employee" | "api_key"; id: string; permissions: readonly Permission[] };

/** 403 naming the first permission the issuer lacks: nobody hands out more than they hold. */
function assertHolds(issuer: KeyIssuer, permissions: readonly Permission[], doing: string) {
  const missing = permissions.find((permission) => !issuer.permissions.includes(permission));
  if (!missing) return;
  const who = issuer.type === "employee" ? "your role does not include" : "this key does not hold";
  throw new DomainError("forbidden", `You cannot ${doing} a key with ${missing}: ${who} it`, { permission: missing });
}

/**
 * The permissions a new key gets: the ones asked for, each of which the issuer must hold; left out,
 * every default key permission the issuer holds (so a developer's key never outranks the developer).
 */
export function keyPermissionsFor(issuer: KeyIssuer, requested: readonly Permission[] | undefined): Permission[] {
  if (!requested) return DEFAULT_KEY_PERMISSIONS.filter((permission) => issuer.permissions.includes(permission));
  assertHolds(issuer, requested, "issue");
  return sortPermissions(requested);
}

type NewKey = {
  createdBy: KeyCreator | null;
  expiresAt: string | Date;
  name?: string | null;
  cidrAllowlist?: string[];
  permissions?: readonly Permission[];
  /** Its own rate limit; null or left out: the platform's default. */
  rateLimit?: RateLimit | null;
};

/** A new key's row, in the scope's account, and its secret, which only the caller sees. */
function newKeyRow({
  createdBy,
  expiresAt,
  name,
  cidrAllowlist = [],
  permissions = DEFAULT_KEY_PERMISSIONS,
  rateLimit = null,
}: NewKey) {
  const { secret, prefix, secretHash } = newApiKeySecret();
  const data = {
    id: newId("key"),
    accountId: scopeAccountId(),
    name: name ?? null,
    prefix,
    secretHash,
    expiresAt: new Date(expiresAt),
    cidrAllowlist,
    permissions: sortPermissions(permissions),
    createdByType: createdBy?.type ?? null,
    createdById: createdBy?.id ?? null,
    ...rateLimitColumns(rateLimit),
  };
  return { data, secret };
}

/** Issues a key for the scope's account; the secret is in the result once and only its hash is kept. */
export async function issueApiKey(key: NewKey) {
  // One transaction (the request's, when there is one): the creator stays held until the key is in.
  return inTransaction(async () => {
    await assertCreatorStillActive(key.createdBy);
    const { data, secret } = newKeyRow(key);
    const row = await tenantDb().apiKey.create({ data });
    // The event shows the key as GET /v1/api_keys does: never its secret.
    await emitResourceEvent("api_key.created", apiKeySchema, presentApiKey(row));
    return { ...presentApiKey(row), secret };
  });
}

/**
 * The scope's keys, newest first. Read raw (lib/api-keys/store.ts) because key-authenticated callers
 * poll this list and Prisma's per-query overhead would be most of the request (see
 * docs/performance.md). On SQLite the same rows come back while nothing changed, and so does the same
 * immutable list (its JSON is then kept by the route wrapper).
 */
export async function listApiKeys(): Promise<readonly ReturnType<typeof presentRawKey>[]> {
  const read = await readKeyList();
  // Kept rows are immutable (lib/db/raw-read.ts); rows read afresh (PostgreSQL) come once.
  if (!isImmutable(read)) return read.map(presentRawKey);
  let keys = presentedLists.get(read);
  if (!keys) {
    keys = immutable(read.map(presentRawKey));
    presentedLists.set(read, keys);
  }
  return keys;
}

const presentedLists = new WeakMap<Rows<KeyListRow>, readonly ReturnType<typeof presentRawKey>[]>();

const time = (value: string | null) => (value === null ? null : isoTimestamp(value));
const presentRawKey = (row: Readonly<KeyListRow>) =>
  presentApiKey({
    ...row,
    expiresAt: isoTimestamp(row.expiresAt),
    createdAt: isoTimestamp(row.createdAt),
    lastUsedAt: time(row.lastUsedAt),
    revokedAt: time(row.revokedAt),
    leakedAt: time(row.leakedAt),
  });

async function findKey(keyId: string) {
  const row = await tenantDb().apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw notFound("API key");
  return row;
}

/**
 * Changes a key's allowlist and/or rate limit (what `changes` leaves out stays). It needs every permission
 * the key holds: loosening a stronger key is escalation too.
 */
export async function updateApiKey({
  issuer,
  keyId,
  changes,
}: {
  issuer: KeyIssuer;
  keyId: string;
  changes: UpdateApiKeyInput;
}) {
  const row = await findKey(keyId);
  assertHolds(issuer, permissionList(row.permissions), "change");
  const revoked = () => new DomainError("conflict", "This API key is revoked; issue a new one");
  if (row.revokedAt) throw revoked();
  // Conditional: a revocation that commits meanwhile is not followed by a change to the revoked key.
  const { count } = await tenantDb().apiKey.updateMany({
    where: { id: row.id, revokedAt: null },
    data: {
      ...(changes.cidrAllowlist !== undefined && { cidrAllowlist: changes.cidrAllowlist }),
      ...(changes.rateLimit !== undefined && rateLimitColumns(changes.rateLimit)),
    },
  });
  if (count === 0) throw revoked();
  const updated = await findKey(row.id);
  // What it replaced, for the audit trail.
  const before = {
    cidrAllowlist: jsonNames(row.cidrAllowlist, isString),
    rateLimit: rateLimitOf(row.rateLimitRequests, row.rateLimitPerSeconds),
  };
  return { key: presentApiKey(updated), before };
}

/**
 * Revokes a key at once; revoking a revoked key changes nothing and succeeds. A key revoking a key
 * needs every permission that key holds (a weaker key cannot switch off a stronger one); an employee
 * needs only api_keys:write, since revoking is how staff stop a leak, and `issuer` left out is the
 * service itself (the seed, a leak report).
 */
export async function revokeApiKey({
  keyId,
  issuer,
  leak,
}: {
  keyId: string;
  issuer?: KeyIssuer;
  /** Why: a secret-scanning report found the secret public here (kept on the key, shown as `leak`). */
  leak?: { url: string; source: string; at: Date };
}) {
  const row = await findKey(keyId);
  if (issuer?.type === "api_key") assertHolds(issuer, permissionList(row.permissions), "revoke");
  const before = { revokedAt: row.revokedAt };
  if (row.revokedAt) return { key: presentApiKey(row), before, revoked: false };
  let revoked = false;
  const key = await changeOnce("api_key.revoked", apiKeySchema, {
    change: async () => {
      const changed = await tenantDb().apiKey.updateMany({
        where: { id: row.id, revokedAt: null },
        data: leak
          ? { revokedAt: leak.at, leakedAt: leak.at, leakUrl: leak.url, leakSource: leak.source }
          : { revokedAt: new Date() },
      });
      revoked = changed.count === 1;
      return changed;
    },
    reread: async () => presentApiKey(await findKey(keyId)),
  });
  // `revoked`: this call revoked it (of concurrent revocations, exactly one did).
  return { key, before, revoked };
}

/**
 * Rolls a key: a new secret with the old key's name, permissions and allowlist, as a new key record
 * (its secret in the result once), while the old secret keeps working for `overlapSeconds` (never
 * past its own expiry) and then stops. Needs every permission the key holds, like issuing it would.
 * A key is rolled once: its `rolledToId` names its one successor, so a second roll (or a concurrent
 * one) answers 409 and makes no second live secret.
 */
export async function rollApiKey({
  issuer,
  keyId,
  expiresAt,
  overlapSeconds,
  now = new Date(),
}: {
  issuer: KeyIssuer;
  keyId: string;
  expiresAt: string | Date;
  overlapSeconds: number;
  now?: Date;
}) {
  const old = await findKey(keyId);
  const permissions = permissionList(old.permissions);
  assertHolds(issuer, permissions, "roll");
  if (old.revokedAt) throw new DomainError("conflict", "This API key is revoked; issue a new one");
  if (old.expiresAt <= now) throw new DomainError("conflict", "This API key has expired; issue a new one");
  if (old.rolledToId) throw alreadyRolled(old.rolledToId);
  const overlapEnds = new Date(now.getTime() + overlapSeconds * 1000);
  const oldEnds = overlapEnds < old.expiresAt ? overlapEnds : old.expiresAt;
  const { data, secret } = newKeyRow({
    createdBy: { type: issuer.type, id: issuer.id },
    expiresAt,
    name: old.name,
    cidrAllowlist: jsonNames(old.cidrAllowlist, isString),
    permissions,
    rateLimit: rateLimitOf(old.rateLimitRequests, old.rateLimitPerSeconds),
  });
  // One transaction: the old secret is never cut short without its replacement. The shortening is
  // conditional on the key still being live and not yet rolled, so a revoke racing the roll is never
  // undone, and of concurrent rolls exactly one names its successor (the others change nothing).
  const row = await inTransaction(async () => {
    const tx = tenantDb();
    await assertCreatorStillActive({ type: issuer.type, id: issuer.id }, now);
    const { count } = await tx.apiKey.updateMany({
      where: { id: old.id, revokedAt: null, expiresAt: { gt: now }, rolledToId: null },
      data: { expiresAt: oldEnds, rolledToId: data.id },
    });
    if (count !== 1) {
      const current = await tx.apiKey.findUnique({ where: { id: old.id }, select: { rolledToId: true } });
      if (current?.rolledToId) throw alreadyRolled(current.rolledToId);
      throw new DomainError("conflict", "This API key was revoked or expired meanwhile; issue a new one");
    }
    return tx.apiKey.create({ data });
  });
  // A roll issues a new key (api_key.created); the old one is not revoked, it expires at the end of the overlap.
  await emitResourceEvent("api_key.created", apiKeySchema, presentApiKey(row));
  return {
    key: { ...presentApiKey(row), secret },
    /** The rolled key's expiry before and after, for the audit trail. */
    rolled: { id: old.id, expiresAtBefore: old.expiresAt, expiresAtAfter: oldEnds },
  };
}

const alreadyRolled = (successorId: string) =>
  new DomainError("conflict", `This API key was already rolled into ${successorId}; roll that key instead`, {
    key: "already rolled",
  });
