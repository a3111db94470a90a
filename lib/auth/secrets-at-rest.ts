import { rawExecute, rawQuery } from "@/lib/db/raw-sql";

// Every column that holds a secret encrypted at rest (lib/auth/encryption.ts), with the associated data
// each is bound to: the one list that start-up's key check (lib/auth/key-custody.ts) and the re-encryption
// (lib/auth/reencrypt.ts) walk. lib/auth/secrets-at-rest.test.ts fails when a model gains an encrypted
// column this list does not name.

export type EncryptedColumn = {
  /** What the column holds, as messages name it. */
  label: string;
  table: string;
  column: string;
  /** The row's primary key columns. */
  keys: readonly string[];
  /** The associated data its ciphertexts are bound to, from the row's key. */
  context: (key: Record<string, string>) => string;
};

/** The associated data of a kept idempotent response's body. */
export const idempotencyContext = (claim: { credential: string; key: string }) =>
  `idempotency:${claim.credential}:${claim.key}`;

/** The associated data of a platform's SSO client secret. */
export const ssoSecretContext = (platformId: string) => `sso-client-secret:${platformId}`;

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  { label: "TOTP secrets", table: "Employee", column: "totpSecret", keys: ["id"], context: (row) => row.id! },
  {
    label: "TOTP enrolments in progress",
    table: "Employee",
    column: "totpPendingSecret",
    keys: ["id"],
    context: (row) => row.id!,
  },
  {
    label: "webhook endpoints' signing keys",
    table: "WebhookEndpoint",
    column: "privateKey",
    keys: ["id"],
    context: (row) => row.id!,
  },
  {
    label: "SSO client secrets",
    table: "SsoConnection",
    column: "clientSecretEncrypted",
    keys: ["platformId"],
    context: (row) => ssoSecretContext(row.platformId!),
  },
  {
    label: "kept idempotent responses",
    table: "IdempotencyKey",
    column: "body",
    keys: ["credential", "key"],
    context: (row) => idempotencyContext({ credential: row.credential!, key: row.key! }),
  },
];

/** The columns of `column`'s key and its value, selected as text. */
const selectList = (column: EncryptedColumn) =>
  [...column.keys.map((key) => `"${key}" AS "${key}"`), `"${column.column}" AS "value"`].join(", ");

export type EncryptedRow = { key: Record<string, string>; value: string };

/**
 * Up to `limit` rows of `column` whose ciphertext is not under the key `keyId`, in key order after `after`
 * (the last row of the previous batch), for walking a table in batches.
 */
export async function rowsNotUnder(
  column: EncryptedColumn,
  keyId: string,
  { limit, after }: { limit: number; after?: Record<string, string> },
): Promise<EncryptedRow[]> {
  const order = column.keys.map((key) => `"${key}"`).join(", ");
  const params: Record<string, unknown> = { prefix: `v2.${keyId}.%`, limit };
  let past = "";
  if (after) {
    // Row-value comparison, which both databases have: (a, b) > (:a, :b).
    past = ` AND (${order}) > (${column.keys.map((key) => `:after_${key}`).join(", ")})`;
    for (const key of column.keys) params[`after_${key}`] = after[key];
  }
  const rows = await rawQuery<Record<string, string>>(
    `SELECT ${selectList(column)} FROM "${column.table}"
     WHERE "${column.column}" IS NOT NULL AND "${column.column}" NOT LIKE :prefix${past}
     ORDER BY ${order} LIMIT :limit`,
    params,
  );
  return rows.map(({ value, ...key }) => ({ key, value: value! }));
}

/** The key ids the column's "v2" ciphertexts name, and one ciphertext that names none ("v1"), if any. */
export async function keysUsedBy(column: EncryptedColumn): Promise<{ keyIds: string[]; unnamed: EncryptedRow | null }> {
  const named = await rawQuery<{ keyId: string }>(
    `SELECT DISTINCT substr("${column.column}", 4, 16) AS "keyId" FROM "${column.table}"
     WHERE "${column.column}" LIKE 'v2.%'`,
  );
  const [unnamed] = await rawQuery<Record<string, string>>(
    `SELECT ${selectList(column)} FROM "${column.table}" WHERE "${column.column}" LIKE 'v1.%' LIMIT 1`,
  );
  const { value, ...key } = unnamed ?? {};
  return { keyIds: named.map((row) => row.keyId), unnamed: unnamed ? { key, value: value! } : null };
}

/**
 * Replaces the row's ciphertext `from` with `to`, only while it still holds `from` (a change the service made
 * meanwhile wins, and the row is left for the next pass). Whether it was replaced.
 */
export async function replaceCiphertext(column: EncryptedColumn, row: EncryptedRow, to: string): Promise<boolean> {
  const where = column.keys.map((key) => `"${key}" = :key_${key}`).join(" AND ");
  const params: Record<string, unknown> = { to, from: row.value };
  for (const key of column.keys) params[`key_${key}`] = row.key[key];
  const changed = await rawExecute(
    `UPDATE "${column.table}" SET "${column.column}" = :to WHERE ${where} AND "${column.column}" = :from`,
    params,
  );
  return changed === 1;
}
