import { newId } from "@/lib/ids";
import { newApiKeySecret } from "@/lib/auth/api-key-secret";
import { ApiError, notFound } from "@/lib/http/api-error";
import { presentApiKey, type ApiKeyRow } from "@/lib/api-keys/schemas";
import { tenantDb, tenantRead } from "@/lib/tenancy";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's key is simply not found (404, never 403).

/** Issues a key for the scope's account; the secret is in the result once and only its hash is kept. */
export async function issueApiKey({
  createdById,
  expiresAt,
  name,
  cidrAllowlist = [],
}: {
  createdById: string | null;
  expiresAt: string | Date;
  name?: string;
  cidrAllowlist?: string[];
}) {
  const { secret, prefix, secretHash } = newApiKeySecret();
  const row = await tenantDb().apiKey.create({
    data: {
      id: newId("key"),
      accountId: "", // set by the tenancy confinement
      name: name ?? null,
      prefix,
      secretHash,
      expiresAt: new Date(expiresAt),
      cidrAllowlist: JSON.stringify(cidrAllowlist),
      createdById,
    },
  });
  return { ...presentApiKey(row), secret };
}

type RawKeyRow = Omit<ApiKeyRow, "expiresAt" | "createdAt" | "lastUsedAt" | "revokedAt"> &
  Record<"expiresAt" | "createdAt", string> &
  Record<"lastUsedAt" | "revokedAt", string | null>;

/**
 * The scope's keys, newest first. Read raw (tenantRead) because key-authenticated callers poll this
 * list and Prisma's per-query overhead would be most of the request (see README, Benchmarks).
 */
export async function listApiKeys() {
  const rows = tenantRead<RawKeyRow>(
    `SELECT id, name, prefix, expiresAt, cidrAllowlist, createdAt, lastUsedAt, revokedAt
     FROM "ApiKey" WHERE accountId = :accountId ORDER BY createdAt DESC, id DESC`,
  );
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return rows.map((row) =>
    presentApiKey({ ...row, expiresAt: new Date(row.expiresAt), createdAt: new Date(row.createdAt), lastUsedAt: date(row.lastUsedAt), revokedAt: date(row.revokedAt) }),
  );
}

async function findKey(keyId: string) {
  const row = await tenantDb().apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw notFound("API key");
  return row;
}

export async function updateApiKeyAllowlist({ keyId, cidrAllowlist }: { keyId: string; cidrAllowlist: string[] }) {
  const row = await findKey(keyId);
  if (row.revokedAt) throw new ApiError("err_conflict", "This API key is revoked; issue a new one");
  const updated = await tenantDb().apiKey.update({ where: { id: row.id }, data: { cidrAllowlist: JSON.stringify(cidrAllowlist) } });
  return presentApiKey(updated);
}

/** Revokes a key at once; revoking a revoked key changes nothing and succeeds. */
export async function revokeApiKey({ keyId }: { keyId: string }) {
  const row = await findKey(keyId);
  if (!row.revokedAt) {
    await tenantDb().apiKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
  }
  return presentApiKey(await findKey(keyId));
}
