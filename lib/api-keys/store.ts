import type { Account, ApiKey, ApiKeyUsageDay } from "@/lib/generated/prisma/client";
import {
  type ColumnList,
  currentScope,
  insertInto,
  postgresqlPool,
  quotedColumns as quoted,
  rawExecute,
  rawRead,
  type Rows,
} from "@/lib/db";

// The API keys' raw statements: the check every key-authenticated request makes, the key list, the keys'
// last use and their daily usage counts (where a model query's own cost would be most of the request).
// Their column lists are checked against the model by lib/db/column-lists.test.ts.

/** The key look-up of every key-authenticated request: what the check needs, nothing shown. */
export const KEY_CHECK_COLUMNS = {
  model: "ApiKey",
  columns: [
    "id",
    "accountId",
    "expiresAt",
    "revokedAt",
    "lastUsedAt",
    "cidrAllowlist",
    "permissions",
    "rateLimitRequests",
    "rateLimitPerSeconds",
  ],
  omitted: [
    "name",
    "prefix",
    "secretHash",
    "createdAt",
    "createdByType",
    "createdById",
    "rolledToId",
    "lastUsedIp",
    "lastUsedUserAgent",
    "leakedAt",
    "leakUrl",
    "leakSource",
  ],
} as const satisfies ColumnList<ApiKey>;
export const KEY_CHECK_ACCOUNT_COLUMNS = {
  model: "Account",
  columns: ["platformId"],
  omitted: [
    "id",
    "parentId",
    "name",
    "featureFlags",
    "createdAt",
    "requireTwoFactor",
    "fourEyesApproval",
    "slaHoursDueDiligence",
    "slaHoursEndorsement",
    "retentionWebhookPayloadDays",
    "retentionSessionDays",
    "retentionRecordsYears",
    "defaultKeyRateLimitRequests",
    "defaultKeyRateLimitPerSeconds",
  ],
} as const satisfies ColumnList<Account>;
/** The key's platform (the account of a platform-level key, or its sub-account's root): its default rate limit. */
export const KEY_CHECK_PLATFORM_COLUMNS = {
  model: "Account",
  columns: ["defaultKeyRateLimitRequests", "defaultKeyRateLimitPerSeconds"],
  omitted: [
    "id",
    "platformId",
    "parentId",
    "name",
    "featureFlags",
    "createdAt",
    "requireTwoFactor",
    "fourEyesApproval",
    "slaHoursDueDiligence",
    "slaHoursEndorsement",
    "retentionWebhookPayloadDays",
    "retentionSessionDays",
    "retentionRecordsYears",
  ],
} as const satisfies ColumnList<Account>;

/** A key's row as the check reads it: DateTime columns as ISO-8601 text, Json columns as JSON text. */
export type KeyCheckRow = Pick<
  ApiKey,
  "id" | "accountId" | "cidrAllowlist" | "permissions" | "rateLimitRequests" | "rateLimitPerSeconds"
> &
  Pick<Account, "platformId" | "defaultKeyRateLimitRequests" | "defaultKeyRateLimitPerSeconds"> & {
    expiresAt: string;
    revokedAt: string | null;
    lastUsedAt: string | null;
    namedAccountId?: string | null;
  };

// The platform's row (p) gives the default rate limit in the same statement: a key GET costs no extra read.
// The key is found in a subquery of its own (LIMIT 1 keeps SQLite from flattening it into the join): in a
// join, SQLite built with STAT4 (as better-sqlite3 is) may weigh the bound hash against the index, and then
// compiles the statement again at every run with new bindings, about 35 µs of CPU on each read that is not
// served from the kept rows (every read after a commit). Alone, the key's look-up is a plain unique-index
// search, and the statement stays compiled.
const KEY_CHECK_FROM = `FROM (SELECT * FROM "ApiKey" WHERE "secretHash" = :secretHash LIMIT 1) k JOIN "Account" a ON a."id" = k."accountId" JOIN "Account" p ON p."id" = a."platformId"`;
const KEY_CHECK_SELECT = `SELECT ${quoted("k.", KEY_CHECK_COLUMNS.columns)}, ${quoted("a.", KEY_CHECK_ACCOUNT_COLUMNS.columns)}, ${quoted("p.", KEY_CHECK_PLATFORM_COLUMNS.columns)}`;
// The texts are built once: the hot paths below hand rawRead the same string every time, whose hash
// the statement and row caches' Map look-ups then reuse instead of hashing a freshly built text.
const KEY_CHECK = `${KEY_CHECK_SELECT} ${KEY_CHECK_FROM}`;
const KEY_CHECK_NAMING = `${KEY_CHECK_SELECT}, (SELECT n."id" FROM "Account" n WHERE n."id" = :named AND n."platformId" = a."platformId") AS "namedAccountId" ${KEY_CHECK_FROM}`;

/**
 * The key whose secret hashes to `secretHash`, joined to its account's platform (one indexed read),
 * and with `named`: whether that account is one of the same platform (`namedAccountId`), in the same statement.
 */
export async function readKeyForCheck(
  secretHash: string,
  named: string | null,
): Promise<Readonly<KeyCheckRow> | undefined> {
  const rows =
    named === null
      ? await rawRead<KeyCheckRow>(KEY_CHECK, { secretHash })
      : await rawRead<KeyCheckRow>(KEY_CHECK_NAMING, { secretHash, named });
  return rows[0];
}

/** A key's use as lastUsedAt, lastUsedIp and lastUsedUserAgent record it: when (ms), from where, with what. */
export type KeyUse = { at: number; ip: string | null; userAgent: string | null };

/** PostgreSQL: writes keys' last use (id, use) in one statement, never moving one back. */
export async function writeKeysLastUsed(used: readonly (readonly [string, KeyUse])[]): Promise<void> {
  await postgresqlPool().query(
    `UPDATE "ApiKey" k SET "lastUsedAt" = u."at", "lastUsedIp" = u."ip", "lastUsedUserAgent" = u."userAgent"
     FROM unnest($1::text[], $2::timestamp(3)[], $3::text[], $4::text[]) AS u("id", "at", "ip", "userAgent")
     WHERE k."id" = u."id" AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < u."at")`,
    [
      used.map(([id]) => id),
      used.map(([, use]) => new Date(use.at).toISOString()),
      used.map(([, use]) => use.ip),
      used.map(([, use]) => use.userAgent),
    ],
  );
}

/** The key list: every column but the account (the caller's own) and the secret's hash. */
export const KEY_LIST_COLUMNS = {
  model: "ApiKey",
  columns: [
    "id",
    "name",
    "prefix",
    "expiresAt",
    "cidrAllowlist",
    "createdAt",
    "lastUsedAt",
    "lastUsedIp",
    "lastUsedUserAgent",
    "revokedAt",
    "permissions",
    "createdByType",
    "createdById",
    "rolledToId",
    "leakedAt",
    "leakUrl",
    "leakSource",
    "rateLimitRequests",
    "rateLimitPerSeconds",
  ],
  omitted: ["accountId", "secretHash"],
} as const satisfies ColumnList<ApiKey>;

/** A listed key as the raw read gives it: times as ISO-8601 text, Json columns as JSON text. */
export type KeyListRow = Omit<
  Pick<ApiKey, (typeof KEY_LIST_COLUMNS.columns)[number]>,
  "expiresAt" | "createdAt" | "lastUsedAt" | "revokedAt" | "leakedAt"
> &
  Record<"expiresAt" | "createdAt", string> &
  Record<"lastUsedAt" | "revokedAt" | "leakedAt", string | null>;

const KEY_LIST = `SELECT ${quoted("", KEY_LIST_COLUMNS.columns)} FROM "ApiKey" WHERE "accountId" = :accountId ORDER BY "createdAt" DESC, "id" DESC`;

/**
 * The scope's keys (lib/db/tenant.ts), newest first. On SQLite the same rows come back (immutable)
 * while nothing changed (lib/db/raw-read.ts).
 */
export function readKeyList(): Promise<Rows<KeyListRow>> {
  const { accountId } = currentScope();
  return rawRead<KeyListRow>(KEY_LIST, { accountId });
}

/** A key's requests of one UTC day with one outcome (lib/api-keys/usage.ts): every column. */
export const KEY_USAGE_COLUMNS = {
  model: "ApiKeyUsageDay",
  columns: ["apiKeyId", "day", "outcome", "count"],
  omitted: [],
} as const satisfies ColumnList<ApiKeyUsageDay>;

const ADD_KEY_USAGE = `${insertInto("ApiKeyUsageDay", KEY_USAGE_COLUMNS.columns)}
  ON CONFLICT ("apiKeyId", "day", "outcome") DO UPDATE SET "count" = "ApiKeyUsageDay"."count" + excluded."count"`;

/**
 * Adds one count to its row, creating it at the first: one statement whose primary key decides, so
 * processes adding to the same row at once each add theirs (never a read, then a write).
 */
export async function addKeyUsage(row: ApiKeyUsageDay): Promise<void> {
  await rawExecute(ADD_KEY_USAGE, row);
}
