import { db, readLocked } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { assertPermission } from "@/lib/auth/authorize";
import { hashPassword } from "@/lib/auth/passwords";
import { randomToken, sha256 } from "@/lib/auth/tokens";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { DomainError, notFound } from "@/lib/errors";
import { presentEmployee } from "@/lib/employees/schemas";
import { tenantDb } from "@/lib/tenancy";

// Password reset without e-mail (CONTRACT.md, "Dashboard decisions"): an owner or admin creates a link,
// shown once (and e-mailed when SMTP is configured); the employee sets a new password with it. The
// token carries 256 random bits and only its SHA-256 is stored, as for invitations, so a database
// reader cannot use a link. One link at a time: a new one replaces the last.

export const PASSWORD_RESET_LIFETIME_MS = 24 * 3_600_000;

const notActive = (status: string) =>
  new DomainError(
    "conflict",
    status === "invited"
      ? "This employee has not accepted their invitation yet: create a new invitation link instead"
      : "This employee is deactivated",
    { status: `is ${status}, not active` },
  );

/**
 * A reset link for an active employee of the scope's platform. Not for oneself (one's own password is
 * changed with the current one); an owner's needs `owners`, as every change to an owner does.
 */
export async function createPasswordReset({
  actor,
  id,
  origin,
  commit = commitWithoutAudit,
}: {
  actor: Actor;
  id: string;
  origin: string;
  commit?: Commit;
}) {
  const token = randomToken(32);
  const passwordResetExpiresAt = new Date(Date.now() + PASSWORD_RESET_LIFETIME_MS);
  const employee = await commit(async () => {
    // The row held: a role change (to owner, which would need `owners` here) or a deactivation
    // committing meanwhile comes before this read or after the link exists.
    const row = await readLocked("Employee", "change", async () => {
      const found = await tenantDb().employee.findUnique({ where: { id } });
      if (!found) throw notFound("Employee");
      return found;
    });
    if (row.id === actor.id) {
      throw new DomainError("forbidden", "You cannot reset your own password here; change it under Security");
    }
    if (row.role === "owner") assertPermission(actor, "owners");
    if (row.status !== "active") throw notActive(row.status);
    await db().employee.update({
      where: { id: row.id },
      data: { passwordResetTokenHash: sha256(token), passwordResetExpiresAt },
    });
    return {
      row,
      before: { passwordResetPending: row.passwordResetExpiresAt !== null && row.passwordResetExpiresAt > new Date() },
      expiresAt: passwordResetExpiresAt,
    };
  });
  const url = new URL("/password-reset", origin);
  url.searchParams.set("token", token);
  return {
    employee: { ...presentEmployee(employee.row), passwordResetUrl: url.toString(), passwordResetExpiresAt },
    before: employee.before,
  };
}

// One answer for unknown, used and expired links alike: it tells a guesser nothing.
const invalidLink = () => new DomainError("not_found", "This password-reset link is invalid or has expired");

/**
 * Sets a new password with a reset token and ends every session of the employee; they then sign in
 * with it (and their second factor, when they have one: a reset link never stands in for it, which is
 * why this signs no one in). Anonymous, so the employee is found by the token's hash with db().
 */
export async function acceptPasswordReset({
  token,
  password,
  commit = commitWithoutAudit,
}: {
  token: string;
  password: string;
  commit?: Commit;
}) {
  const tokenHash = sha256(token);
  const found = await db().employee.findUnique({ where: { passwordResetTokenHash: tokenHash } });
  if (
    !found ||
    found.status !== "active" ||
    !found.passwordResetExpiresAt ||
    found.passwordResetExpiresAt <= new Date()
  )
    throw invalidLink();
  // Hashed before the transaction: slow work must not hold the database.
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const who = { type: "employee" as const, id: found.id, platformId: found.accountId, accountId: found.accountId };
  return commit(async () => {
    // Conditional on the token still being unused and unexpired: of two requests racing with one link, one wins.
    const { count } = await db().employee.updateMany({
      where: { id: found.id, passwordResetTokenHash: tokenHash, status: "active", passwordResetExpiresAt: { gt: now } },
      data: { passwordHash, passwordResetTokenHash: null, passwordResetExpiresAt: null },
    });
    if (count !== 1) throw invalidLink();
    const ended = await db().session.updateMany({
      where: { employeeId: found.id, revokedAt: null },
      data: { revokedAt: now },
    });
    return { passwordReset: true as const, endedSessions: ended.count };
  }, who);
}
