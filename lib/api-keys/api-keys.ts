import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { newApiKeySecret } from "@/lib/auth/api-key-secret";
import { ApiError, notFound } from "@/lib/http/api-error";
import { presentApiKey } from "@/lib/api-keys/schemas";

/** Issues a key; the secret is in the result once and only its hash is kept. */
export async function issueApiKey({
  accountId,
  createdById,
  expiresAt,
  name,
  cidrAllowlist = [],
}: {
  accountId: string;
  createdById: string | null;
  expiresAt: string | Date;
  name?: string;
  cidrAllowlist?: string[];
}) {
  const { secret, prefix, secretHash } = newApiKeySecret();
  const row = await db().apiKey.create({
    data: {
      id: newId("key"),
      accountId,
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

export async function listApiKeys({ accountId }: { accountId: string }) {
  const rows = await db().apiKey.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(presentApiKey);
}

// Keys are looked up by id *and* account: another account's key answers 404, never 403.
async function findKey(accountId: string, keyId: string) {
  const row = await db().apiKey.findFirst({ where: { id: keyId, accountId } });
  if (!row) throw notFound("API key");
  return row;
}

export async function updateApiKeyAllowlist({
  accountId,
  keyId,
  cidrAllowlist,
}: {
  accountId: string;
  keyId: string;
  cidrAllowlist: string[];
}) {
  const row = await findKey(accountId, keyId);
  if (row.revokedAt) throw new ApiError("err_conflict", "This API key is revoked; issue a new one");
  const updated = await db().apiKey.update({ where: { id: row.id }, data: { cidrAllowlist: JSON.stringify(cidrAllowlist) } });
  return presentApiKey(updated);
}

/** Revokes a key at once; revoking a revoked key changes nothing and succeeds. */
export async function revokeApiKey({ accountId, keyId }: { accountId: string; keyId: string }) {
  const row = await findKey(accountId, keyId);
  if (!row.revokedAt) {
    await db().apiKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
  }
  return presentApiKey(await findKey(accountId, keyId));
}
