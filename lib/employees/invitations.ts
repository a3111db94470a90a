import { createOrConflict, db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { randomToken, sha256 } from "@/lib/auth/tokens";
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

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

/**
 * Invites an employee to the scope's platform. The link's token (256 random bits) is returned
 * this once; only its SHA-256 is stored, so a database reader cannot accept an invitation.
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
  const token = randomToken(32);
  const invitationExpiresAt = new Date(Date.now() + INVITATION_LIFETIME_MS);
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
          invitationTokenHash: sha256(token),
          invitationExpiresAt,
        },
      }),
    () =>
      new DomainError("conflict", "An employee with this e-mail address already exists", {
        email: "is already in use",
      }),
  );
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
 * A fresh invitation link for an employee still `invited` (the first was lost, or it expired): a new
 * token, valid 7 days from now, and the old link stops working. The employee's role is granted again by
 * whoever issues it, so it needs what inviting with that role needs (`roles`, `owner` also `owners`).
 * Anyone else answers 409: an active employee who forgot their password gets a password-reset link.
 */
export async function reissueInvitation({ actor, id, origin }: { actor: Actor; id: string; origin: string }) {
  const row = await tenantDb().employee.findUnique({ where: { id } });
  if (!row) throw notFound("Employee");
  assertMayGrant(actor, row.role);
  const token = randomToken(32);
  const invitationExpiresAt = new Date(Date.now() + INVITATION_LIFETIME_MS);
  // Conditional on the employee still being invited: an acceptance committing meanwhile wins, and this answers 409.
  const { count } = await tenantDb().employee.updateMany({
    where: { id: row.id, status: "invited" },
    data: { invitationTokenHash: sha256(token), invitationExpiresAt },
  });
  if (count !== 1) {
    throw new DomainError(
      "conflict",
      row.status === "deactivated"
        ? "This employee is deactivated"
        : "This employee has already accepted their invitation: create a password-reset link instead",
      { status: "is not invited" },
    );
  }
  return {
    ...presentEmployee(row),
    invitationUrl: invitationLink(origin, token),
    invitationExpiresAt,
    before: { invitationExpiresAt: row.invitationExpiresAt },
  };
}

// One answer for unknown, used and expired links alike: it tells a guesser nothing.
const invalidLink = () => new DomainError("not_found", "This invitation link is invalid or has expired");

/**
 * Activates an invited employee with their chosen password and signs them in. No tenant scope
 * exists yet (the caller is anonymous), so the employee is found by the token's hash with db().
 */
export async function acceptInvitation({
  token,
  password,
  ip,
  commit = commitWithoutAudit,
}: {
  token: string;
  password: string;
  ip: string | null;
  commit?: Commit;
}) {
  const tokenHash = sha256(token);
  const invited = await db().employee.findUnique({ where: { invitationTokenHash: tokenHash } });
  if (
    !invited ||
    invited.status !== "invited" ||
    !invited.invitationExpiresAt ||
    invited.invitationExpiresAt <= new Date()
  ) {
    throw invalidLink();
  }
  const passwordHash = await hashPassword(password);
  const now = new Date();
  // Employees belong to their platform's own account, whose id is the platform's.
  const who = {
    type: "employee" as const,
    id: invited.id,
    platformId: invited.accountId,
    accountId: invited.accountId,
  };
  const { employee, session, cookie } = await commit(async () => {
    // Conditional on the token still being unused and unexpired, so of two requests racing with one link only one wins.
    const { count } = await db().employee.updateMany({
      where: { id: invited.id, invitationTokenHash: tokenHash, status: "invited", invitationExpiresAt: { gt: now } },
      data: { status: "active", passwordHash, invitationTokenHash: null, invitationExpiresAt: null, lastLoginAt: now },
    });
    if (count !== 1) throw invalidLink();
    const activated = await db().employee.findUniqueOrThrow({ where: { id: invited.id }, include: { account: true } });
    return { employee: activated, ...(await createSession({ employeeId: activated.id, ip })) };
  }, who);
  return { employee, account: employee.account, session, cookie };
}
