import { db } from "@/lib/db";
import { commitWithoutAudit, type Commit } from "@/lib/audit/record-audit-event";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { sha256 } from "@/lib/auth/tokens";
import { ApiError } from "@/lib/http/api-error";

// One answer for unknown, used and expired links alike: it tells a guesser nothing.
const invalidLink = () => new ApiError("err_not_found", "This invitation link is invalid or has expired");

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
  if (!invited || invited.status !== "invited" || !invited.invitationExpiresAt || invited.invitationExpiresAt <= new Date()) {
    throw invalidLink();
  }
  const passwordHash = await hashPassword(password);
  const now = new Date();
  // Employees belong to their platform's own account, whose id is the platform's.
  const who = { type: "employee" as const, id: invited.id, platformId: invited.accountId, accountId: invited.accountId };
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
