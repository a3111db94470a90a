import { db } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { assertPermission } from "@/lib/auth/authorize";
import { hashPassword } from "@/lib/auth/passwords";
import {
  findCredentialLink,
  hasWorkingLink,
  issueCredentialLink,
  removeCredentialLink,
} from "@/lib/employees/credential-links";
import { passwordSignInRefused } from "@/lib/sso/connection";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { DomainError, notFound } from "@/lib/errors";
import { presentEmployee } from "@/lib/employees/schemas";
import { tenantDb } from "@/lib/tenancy";

// Password reset without e-mail: an owner or admin creates a link, shown once (and e-mailed when SMTP is
// configured); the employee sets a new password with it. A credential link (lib/employees/credential-links.ts):
// one at a time, and a change of the employee's role, status, e-mail or password before it is used ends it.

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
  const employee = await commit(async () => {
    // The link carries the stamp of the row the checks below decide on: a role change (to owner, say)
    // or a deactivation committed after this read has moved the employee's stamp, and ends the link.
    const row = await tenantDb().employee.findUnique({ where: { id } });
    if (!row) throw notFound("Employee");
    if (row.id === actor.id) {
      throw new DomainError("forbidden", "You cannot reset your own password here; change it under Security");
    }
    if (row.role === "owner") assertPermission(actor, "owners");
    if (row.status !== "active") throw notActive(row.status);
    const before = { passwordResetPending: (await hasWorkingLink(row, "password_reset")) !== null };
    const { token, expiresAt } = await issueCredentialLink({
      employee: row,
      purpose: "password_reset",
      lifetimeMs: PASSWORD_RESET_LIFETIME_MS,
    });
    return { row, before, expiresAt, token };
  });
  const url = new URL("/password-reset", origin);
  url.searchParams.set("token", employee.token);
  return {
    employee: {
      ...presentEmployee(employee.row),
      passwordResetUrl: url.toString(),
      passwordResetExpiresAt: employee.expiresAt,
    },
    before: employee.before,
  };
}

// One answer for unknown, used and expired links alike: it tells a guesser nothing.
const invalidLink = () => new DomainError("not_found", "This password-reset link is invalid or has expired");

/**
 * Sets a new password with a reset link and ends every session of the employee; they then sign in
 * with it (and their second factor, when they have one: a reset link never stands in for it, which is
 * why this signs no one in). `signIn` says how: "sso" where their platform requires single sign-on and
 * they are not an owner, since the password then opens nothing until that requirement is lifted.
 * Anonymous, so the employee is found by the link with db().
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
  const link = await findCredentialLink(token, "password_reset");
  if (!link || link.employee.status !== "active") throw invalidLink();
  const found = link.employee;
  // Hashed before the transaction: slow work must not hold the database.
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const signIn = (await passwordSignInRefused(found)) ? ("sso" as const) : ("password" as const);
  const who = { type: "employee" as const, id: found.id, platformId: found.accountId, accountId: found.accountId };
  return commit(async () => {
    // Conditional on the stamp the link carries: the new password moves it, so of two requests racing
    // with one link one wins, and a role change or deactivation committed since wins over it.
    const { count } = await db().employee.updateMany({
      where: { id: found.id, status: "active", securityStamp: link.securityStamp },
      data: { passwordHash },
    });
    if (count !== 1) throw invalidLink();
    await removeCredentialLink(link.tokenHash);
    const ended = await db().session.updateMany({
      where: { employeeId: found.id, revokedAt: null },
      data: { revokedAt: now },
    });
    return { passwordReset: true as const, endedSessions: ended.count, signIn };
  }, who);
}
