import { newId } from "@/lib/ids";
import { newApiKeySecret } from "@/lib/auth/api-key-secret";
import { ApiError, notFound } from "@/lib/http/api-error";
import { presentApiKey } from "@/lib/api-keys/schemas";
import { tenantDb } from "@/lib/tenancy";

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

export async function listApiKeys() {
  const rows = await tenantDb().apiKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(presentApiKey);
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
