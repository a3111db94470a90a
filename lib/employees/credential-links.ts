import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/auth/tokens";
import type { CredentialLinkPurpose } from "@/lib/generated/prisma/client";

// Links that let whoever holds them set an employee's password (invitations, password resets). A link is
// bound to what the employee was when it was issued: it carries the employee's security stamp of that
// moment, and works only while the stamp is unchanged. Every change of the employee's role, status,
// e-mail or password moves the stamp (a database trigger on Employee, so no code path can forget it),
// which ends every link issued before, whoever made the change. A newer link of the same purpose
// replaces the last (one row per employee and purpose). The token carries 256 random bits; only its
// SHA-256 is stored, so a database reader cannot use a link.

export type LinkPurpose = CredentialLinkPurpose;

/**
 * A new link for `employee` as it was read for deciding that the caller may issue it: its stamp is the
 * one that decision saw, so a role change committed since (to owner, say) has already moved the
 * employee's stamp and the link is born dead. Runs in the caller's transaction; answers the token once.
 */
export async function issueCredentialLink({
  employee,
  purpose,
  lifetimeMs,
}: {
  employee: { id: string; securityStamp: number };
  purpose: LinkPurpose;
  lifetimeMs: number;
}) {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + lifetimeMs);
  const link = { tokenHash: sha256(token), securityStamp: employee.securityStamp, expiresAt, createdAt: new Date() };
  await db().credentialLink.upsert({
    where: { employeeId_purpose: { employeeId: employee.id, purpose } },
    create: { employeeId: employee.id, purpose, ...link },
    update: link,
  });
  return { token, expiresAt };
}

/**
 * The link `token` names, with its employee, when it is for `purpose`, unexpired and issued under the
 * employee's current stamp; otherwise null (unknown, replaced, used, expired or outdated alike). The
 * use itself must be conditional on the stamp (`securityStamp: link.securityStamp` in its update's
 * where): the change it makes moves the stamp, so of two uses racing, one wins.
 */
export async function findCredentialLink(token: string, purpose: LinkPurpose, now = new Date()) {
  const link = await db().credentialLink.findUnique({
    where: { tokenHash: sha256(token) },
    include: { employee: { include: { account: true } } },
  });
  if (!link || link.purpose !== purpose || link.expiresAt <= now) return null;
  if (link.securityStamp !== link.employee.securityStamp) return null;
  return link;
}

/** Whether `employee` has a link of `purpose` that still works (for the audit trail's "before"). */
export async function hasWorkingLink(employee: { id: string; securityStamp: number }, purpose: LinkPurpose) {
  const link = await db().credentialLink.findUnique({
    where: { employeeId_purpose: { employeeId: employee.id, purpose } },
    select: { securityStamp: true, expiresAt: true },
  });
  return link !== null && link.securityStamp === employee.securityStamp && link.expiresAt > new Date() ? link : null;
}

/** A used link's row goes (its stamp is already outdated by the use; this only keeps the table small). */
export const removeCredentialLink = (tokenHash: string) => db().credentialLink.deleteMany({ where: { tokenHash } });
