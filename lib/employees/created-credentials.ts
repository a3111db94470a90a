import { db, lockRows } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { permissionList, type Permission } from "@/lib/auth/permissions";
import { apiKeySchema, presentApiKey } from "@/lib/api-keys/schemas";
import type { ApiKey, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/errors";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Offboarding's other half: the API keys and webhook endpoints an employee created keep working
// after they leave unless someone finds and revokes them. A platform's keys and endpoints live in
// every account of the platform (a key issued with Service-Account-Id lives in that sub-account), so
// these queries use db() confined to the platform by hand, not tenantDb(), which sees one account.

export type CreatedCredentials = { apiKeys: ApiKey[]; webhookEndpoints: WebhookEndpoint[] };

const oldestFirst = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/**
 * The still-working credentials `employeeId` created in the platform: keys not revoked and not
 * expired, endpoints not deleted and enabled. Also those created by keys they created, at any depth
 * (their key made a key that made an endpoint), so one hop does not take a credential out of
 * offboarding's reach. The walk goes through revoked and expired keys too: a key made before its
 * maker was revoked still works. Run it in the transaction that revokes what it finds.
 *
 * With `lockMakers` (offboarding, which holds the employee's row already) each level's keys are held
 * (lockRows) before the keys they made are looked for: a key being made right now by one of them
 * (lib/auth/creator.ts holds its maker shared) commits first and is found, or is refused after.
 */
export async function findCreatedCredentials({
  platformId,
  employeeId,
  now,
  lockMakers = false,
}: {
  platformId: string;
  employeeId: string;
  now: Date;
  lockMakers?: boolean;
}): Promise<CreatedCredentials> {
  const inPlatform = { account: { platformId } };
  const keys: ApiKey[] = await db().apiKey.findMany({
    where: { ...inPlatform, createdByType: "employee", createdById: employeeId },
    orderBy: oldestFirst,
  });
  const seen = new Set(keys.map((key) => key.id));
  for (let makers = [...seen]; makers.length > 0;) {
    if (lockMakers) await lockRows("ApiKey", makers, "change");
    const made = await db().apiKey.findMany({
      where: { ...inPlatform, createdByType: "api_key", createdById: { in: makers } },
      orderBy: oldestFirst,
    });
    const fresh = made.filter((key) => !seen.has(key.id));
    for (const key of fresh) seen.add(key.id);
    keys.push(...fresh);
    makers = fresh.map((key) => key.id);
  }
  const webhookEndpoints = await db().webhookEndpoint.findMany({
    where: {
      ...inPlatform,
      deletedAt: null,
      enabled: true,
      OR: [
        { createdByType: "employee", createdById: employeeId },
        { createdByType: "api_key", createdById: { in: [...seen] } },
      ],
    },
    orderBy: oldestFirst,
  });
  const apiKeys = keys
    .filter((key) => key.revokedAt === null && key.expiresAt > now)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return { apiKeys, webhookEndpoints };
}

export const credentialIds = ({ apiKeys, webhookEndpoints }: CreatedCredentials) => ({
  apiKeys: apiKeys.map((key) => key.id),
  webhookEndpoints: webhookEndpoints.map((endpoint) => endpoint.id),
});

/**
 * Revoking needs what revoking a key and disabling an endpoint need on their own, and a key revokes
 * only keys whose permissions are within its own (docs/security.md, Who may do what): 403 naming
 * the first permission missing, before anything changes.
 */
export function assertMayRevoke(actor: Actor, { apiKeys }: CreatedCredentials) {
  const needed = new Set<Permission>(["api_keys:write", "webhooks:write"]);
  if (actor.type === "api_key")
    for (const key of apiKeys) for (const permission of permissionList(key.permissions)) needed.add(permission);
  const missing = [...needed].find((permission) => !actor.permissions.includes(permission));
  if (!missing) return;
  const who =
    actor.type === "employee" ? `Your role (${actor.role}) does not allow this` : "This API key does not allow this";
  throw new DomainError("forbidden", `${who}: revoking the credentials needs the ${missing} permission`, {
    permission: missing,
  });
}

/**
 * Disables the endpoints (nothing more is recorded or sent for them; enabling one again is a
 * deliberate act) and then revokes the keys, each announced as api_key.revoked as a revoke on its
 * own would be (the endpoints go first, so they do not hear of their own offboarding). Each write is
 * conditional on the credential still working, so only what this call changed is answered and
 * announced. Runs in the caller's transaction, with the deactivation.
 */
export async function revokeCreatedCredentials({ apiKeys, webhookEndpoints }: CreatedCredentials, now: Date) {
  const disabled: string[] = [];
  for (const endpoint of webhookEndpoints) {
    const { count } = await db().webhookEndpoint.updateMany({
      where: { id: endpoint.id, enabled: true, deletedAt: null },
      data: { enabled: false },
    });
    if (count === 1) disabled.push(endpoint.id);
  }
  const revoked: string[] = [];
  for (const key of apiKeys) {
    const { count } = await db().apiKey.updateMany({
      where: { id: key.id, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count !== 1) continue;
    revoked.push(key.id);
    await emitResourceEvent("api_key.revoked", apiKeySchema, presentApiKey({ ...key, revokedAt: now }), {
      accountId: key.accountId,
    });
  }
  return { apiKeys: revoked, webhookEndpoints: disabled };
}
