import { createOrConflict, db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import type { Actor } from "@/lib/auth/actor";
import { assertMayGrant } from "@/lib/employees/employees";
import { employeeSchema, presentEmployee } from "@/lib/employees/schemas";
import type { Role } from "@/lib/auth/permissions";
import { scopePlatformId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import {
  findCredentialLink,
  hasWorkingLink,
  issueCredentialLink,
  removeCredentialLink,
} from "@/lib/employees/credential-links";
import { passwordSignInRefused } from "@/lib/sso/connection";

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

/**
 * Invites an employee to the scope's platform. The link (lib/employees/credential-links.ts) is
 * returned this once; a change of the employee's role or status before it is used ends it.
 */
export async function inviteEmployee({
  name,
  email,
  role,
  origin,
}: {
  name: string;
  email: string;
  role: Role;
  origin: string;
}) {
  const address = email.trim().toLowerCase();
  // Sign-in is by e-mail alone, so addresses are unique across the whole service, not per platform:
  // the unique index on e-mail refuses one in use on any platform.
  const row = await createOrConflict(
    () =>
      tenantDb().employee.create({
        data: {
          id: newId("emp"),
          // The platform's own account, whose id is the platform's.
          accountId: scopePlatformId(),
          name,
          email: address,
          status: "invited",
          role,
        },
      }),
    () =>
      new DomainError("conflict", "An employee with this e-mail address already exists", {
        email: "is already in use",
      }),
  );
  const { token, expiresAt: invitationExpiresAt } = await issueCredentialLink({
    employee: row,
    purpose: "invitation",
    lifetimeMs: INVITATION_LIFETIME_MS,
  });
  // The employee as GET /v1/employees/{id} shows them: never the invitation link or its token.
  await emitResourceEvent("employee.invited", employeeSchema, presentEmployee(row), { accountId: row.accountId });
  return { ...presentEmployee(row), invitationUrl: invitationLink(origin, token), invitationExpiresAt };
}

function invitationLink(origin: string, token: string) {
  const url = new URL("/invitations/accept", origin);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * A fresh invitation link for an employee still `invited` (the first was lost, or it expired): valid 7
 * days from now, and the old link stops working. The employee's role is granted again by whoever issues
 * it, so it needs what inviting with that role needs (`roles`, `owner` also `owners`). The link carries
 * the stamp of the row that check read: a role change committed since makes it answer 404 like any
 * outdated link. Anyone not invited answers 409: an active employee who forgot their password gets a
 * password-reset link.
 */
export async function reissueInvitation({ actor, id, origin }: { actor: Actor; id: string; origin: string }) {
  const row = await tenantDb().employee.findUnique({ where: { id } });
  if (!row) throw notFound("Employee");
  assertMayGrant(actor, row.role);
  if (row.status !== "invited") {
    throw new DomainError(
      "conflict",
      row.status === "deactivated"
        ? "This employee is deactivated"
        : "This employee has already accepted their invitation: create a password-reset link instead",
      { status: "is not invited" },
    );
  }
  const before = { invitationExpiresAt: (await hasWorkingLink(row, "invitation"))?.expiresAt ?? null };
  const { token, expiresAt: invitationExpiresAt } = await issueCredentialLink({
    employee: row,
    purpose: "invitation",
    lifetimeMs: INVITATION_LIFETIME_MS,
  });
  return { ...presentEmployee(row), invitationUrl: invitationLink(origin, token), invitationExpiresAt, before };
}

// One answer for unknown, used and expired links alike: it tells a guesser nothing.
const invalidLink = () => new DomainError("not_found", "This invitation link is invalid or has expired");

/**
 * How the employee an invitation link names will sign in once they accept it: with a password they
 * choose now, or through the platform's single sign-on (required there, and they are not an owner).
 * Null when the link does not work. For the acceptance page, which shows the matching form.
 */
export async function invitationSignIn(token: string): Promise<"password" | "sso" | null> {
  const link = await findCredentialLink(token, "invitation");
  if (!link || link.employee.status !== "invited") return null;
  return (await passwordSignInRefused(link.employee)) ? "sso" : "password";
}

/**
 * Activates an invited employee. With a password of their choosing they are signed in at once. Where
 * their platform requires single sign-on (and they are not an owner) no password is set and no session
 * made: they sign in through the identity provider, the only way in for them (`{ signIn: "sso" }`).
 * No tenant scope exists yet (the caller is anonymous), so the employee is found by the link with db().
 */
export async function acceptInvitation({
  token,
  password,
  ip,
  commit = commitWithoutAudit,
}: {
  token: string;
  password?: string;
  ip: string | null;
  commit?: Commit;
}) {
  const link = await findCredentialLink(token, "invitation");
  if (!link || link.employee.status !== "invited") throw invalidLink();
  const invited = link.employee;
  const viaSso = await passwordSignInRefused(invited);
  if (!viaSso && !password) {
    throw new DomainError("invalid", "password: is required", { password: "is required" });
  }
  // Hashed before the transaction: slow work must not hold the database.
  const passwordHash = viaSso ? null : await hashPassword(password!);
  const now = new Date();
  // Employees belong to their platform's own account, whose id is the platform's.
  const who = {
    type: "employee" as const,
    id: invited.id,
    platformId: invited.accountId,
    accountId: invited.accountId,
  };
  return commit(async () => {
    // Conditional on the stamp the link carries: the activation moves it, so of two requests racing with
    // one link only one wins, and a role change committed since the link was read wins over it.
    const { count } = await db().employee.updateMany({
      where: { id: invited.id, status: "invited", securityStamp: link.securityStamp },
      data: { status: "active", passwordHash, ...(viaSso ? {} : { lastLoginAt: now }) },
    });
    if (count !== 1) throw invalidLink();
    await removeCredentialLink(link.tokenHash);
    const activated = await db().employee.findUniqueOrThrow({ where: { id: invited.id }, include: { account: true } });
    if (viaSso) return { signIn: "sso" as const, employee: activated };
    return {
      signIn: "password" as const,
      employee: activated,
      account: activated.account,
      ...(await createSession({ employeeId: activated.id, ip })),
    };
  }, who);
}
