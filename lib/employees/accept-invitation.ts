import { db } from "@/lib/db";
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
export async function acceptInvitation({ token, password, ip }: { token: string; password: string; ip: string | null }) {
  const tokenHash = sha256(token);
  const invited = await db().employee.findUnique({ where: { invitationTokenHash: tokenHash } });
  if (!invited || invited.status !== "invited" || !invited.invitationExpiresAt || invited.invitationExpiresAt <= new Date()) {
    throw invalidLink();
  }
  const passwordHash = await hashPassword(password);
  const now = new Date();
  // Conditional on the token still being unused and unexpired, so of two requests racing with one link only one wins.
  const { count } = await db().employee.updateMany({
    where: { id: invited.id, invitationTokenHash: tokenHash, status: "invited", invitationExpiresAt: { gt: now } },
    data: { status: "active", passwordHash, invitationTokenHash: null, invitationExpiresAt: null, lastLoginAt: now },
  });
  if (count !== 1) throw invalidLink();
  const employee = await db().employee.findUniqueOrThrow({ where: { id: invited.id }, include: { account: true } });
  const { session, cookie } = await createSession({ employeeId: employee.id, ip });
  return { employee, account: employee.account, session, cookie };
}
