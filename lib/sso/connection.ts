import { db } from "@/lib/db";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import { ssoSecretContext } from "@/lib/auth/secrets-at-rest";
import { isString, jsonNames } from "@/lib/db/json";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/errors";
import { issuerUrl } from "@/lib/sso/issuer";
import type { SsoInput, SsoSettings } from "@/lib/sso/schemas";

// A platform's OpenID Connect connection (one SsoConnection row per platform). The client secret is
// stored only as AES-256-GCM ciphertext bound to the platform id, and never leaves this module except
// to talk to the issuer.

type Row = { issuer: string; clientId: string; allowedDomains: Prisma.JsonValue; enforced: boolean };

export function presentSso(row: Row | null): SsoSettings {
  if (!row) return null;
  return {
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: true,
    allowedDomains: jsonNames(row.allowedDomains, isString),
    enforced: row.enforced,
  };
}

export const findSsoConnection = (platformId: string) => db().ssoConnection.findUnique({ where: { platformId } });

/** The connection with its secret in the clear, for talking to the issuer; null when the platform has none. */
export async function ssoClientOf(platformId: string) {
  const row = await findSsoConnection(platformId);
  if (!row) return null;
  return {
    ...row,
    allowedDomains: jsonNames(row.allowedDomains, isString),
    clientSecret: decryptSecret(row.clientSecretEncrypted, ssoSecretContext(platformId)),
  };
}

/**
 * Writes (or with null removes) the platform's connection. An update without `clientSecret` keeps the
 * stored one; the first needs one. Answers the connection before and after, as presented (no secret).
 */
export async function saveSsoConnection(platformId: string, input: SsoInput) {
  const before = await findSsoConnection(platformId);
  if (input === null) {
    await db().ssoConnection.deleteMany({ where: { platformId } });
    return { before: presentSso(before), after: null };
  }
  issuerUrl(input.issuer);
  if (!input.clientSecret && !before) {
    throw new DomainError("invalid", "sso.clientSecret: is required when single sign-on is first set up", {
      "sso.clientSecret": "is required when single sign-on is first set up",
    });
  }
  const columns = {
    issuer: input.issuer,
    clientId: input.clientId,
    allowedDomains: [...new Set(input.allowedDomains)],
    enforced: input.enforced,
    ...(input.clientSecret && {
      clientSecretEncrypted: encryptSecret(input.clientSecret, ssoSecretContext(platformId)),
    }),
  };
  const after = await db().ssoConnection.upsert({
    where: { platformId },
    create: { platformId, clientSecretEncrypted: "", ...columns },
    update: columns,
  });
  return { before: presentSso(before), after: presentSso(after) };
}

/** Whether password sign-in is refused to this employee: SSO enforced on their platform, and not an owner (break-glass). */
export async function passwordSignInRefused(employee: { role: string; account: { platformId: string } }) {
  if (employee.role === "owner") return false;
  const row = await db().ssoConnection.findUnique({
    where: { platformId: employee.account.platformId },
    select: { enforced: true },
  });
  return row?.enforced === true;
}

/** For the sign-in page: whether any platform offers single sign-on, and whether one enforces it. */
export async function ssoSignInHint() {
  const rows = await db().ssoConnection.findMany({ select: { enforced: true }, take: 50 });
  return { available: rows.length > 0, enforced: rows.some((row) => row.enforced) };
}
