import type { KeyCreator } from "@/lib/api-keys/schemas";
import { db, lockRow } from "@/lib/db";
import { DomainError } from "@/lib/errors";

/**
 * Refuses (401) a new credential whose creator stopped being one after the request was
 * authenticated: an employee deactivated, a key revoked or expired meanwhile. The creator's row is
 * held shared until the request's transaction ends (lockRow), and offboarding holds it for a change
 * before it looks for what they made, so a key or endpoint made by a leaver is either refused here or
 * already committed for offboarding to find and revoke.
 */
export async function assertCreatorStillActive(createdBy: KeyCreator | null, now = new Date()) {
  if (!createdBy) return; // the service itself (the seed, a sandbox platform)
  await lockRow(createdBy.type === "employee" ? "Employee" : "ApiKey", createdBy.id, "share");
  const live =
    createdBy.type === "employee"
      ? await db().employee.count({ where: { id: createdBy.id, status: "active" } })
      : await db().apiKey.count({ where: { id: createdBy.id, revokedAt: null, expiresAt: { gt: now } } });
  if (live === 0)
    throw new DomainError(
      "unauthenticated",
      "This credential stopped working while the request ran; nothing was created",
    );
}
