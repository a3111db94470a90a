import { db } from "@/lib/db";
import { commitWithoutAudit, type Commit } from "@/lib/audit/record-audit-event";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { signInRules, takeAttempts } from "@/lib/auth/throttle";
import { env } from "@/lib/env";
import { ApiError, notFound } from "@/lib/http/api-error";
import { newRecoveryCodes, recoveryCodeRows } from "@/lib/employees/recovery-codes";

// What a signed-in employee does for themselves. Each function takes the employee and session the
// route wrapper authenticated, and touches only that employee's rows.

type Self = { employeeId: string; sessionId: string };

/**
 * Changes the password after checking the current one, and ends every other session. Each check is
 * counted before the password is verified (5 per 15 minutes per employee, as a sign-in's per-client
 * limit), so a stolen session cannot test passwords freely, even with parallel requests.
 */
export async function changeOwnPassword({
  employeeId,
  sessionId,
  currentPassword,
  newPassword,
  commit = commitWithoutAudit,
}: Self & { currentPassword: string; newPassword: string; commit?: Commit }) {
  const employee = await db().employee.findUniqueOrThrow({ where: { id: employeeId } });
  const attempt = await takeAttempts([{ key: `password-change:${employeeId}`, rule: signInRules.accountFromIp }]);
  let right: boolean;
  try {
    right = Boolean(employee.passwordHash) && (await verifyPassword(currentPassword, employee.passwordHash!));
  } catch (error) {
    await attempt.refund(); // not checked (the hashing queue was full): it does not count
    throw error;
  }
  if (!right) {
    throw new ApiError("err_validation", "currentPassword: is not your current password", { currentPassword: "is not your current password" });
  }
  await attempt.refund();
  const passwordHash = await hashPassword(newPassword);
  const now = new Date();
  const ended = await commit(async () => {
    await db().employee.update({ where: { id: employeeId }, data: { passwordHash } });
    return db().session.updateMany({ where: { employeeId, revokedAt: null, id: { not: sessionId } }, data: { revokedAt: now } });
  });
  return { passwordChanged: true as const, endedSessions: ended.count };
}

/** The employee's sessions that still work (not ended, not idle too long, not past their end), newest first. */
export async function listOwnSessions({ employeeId, sessionId, now = new Date() }: Self & { now?: Date }) {
  const idleSince = new Date(now.getTime() - env().SESSION_IDLE_MINUTES * 60_000);
  const rows = await db().session.findMany({
    where: { employeeId, revokedAt: null, expiresAt: { gt: now }, lastSeenAt: { gt: idleSince } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((row) => presentOwnSession(row, sessionId));
}

/** Ends one of the employee's own sessions; anyone else's is not found. Ending an ended one changes nothing. */
export async function endOwnSession({ employeeId, sessionId, id }: Self & { id: string }) {
  const row = await db().session.findFirst({ where: { id, employeeId } });
  if (!row) throw notFound("Session");
  await db().session.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
  return presentOwnSession(row, sessionId);
}

function presentOwnSession(row: { id: string; createdAt: Date; lastSeenAt: Date; ip: string | null }, currentSessionId: string) {
  return { id: row.id, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt, ip: row.ip, current: row.id === currentSessionId };
}

/** Ten new recovery codes, shown this once; the old set stops working in the same transaction. */
export async function regenerateRecoveryCodes({ employeeId }: { employeeId: string }) {
  const recoveryCodes = newRecoveryCodes();
  await db().$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { employeeId } });
    await tx.recoveryCode.createMany({ data: recoveryCodeRows(employeeId, recoveryCodes) });
  });
  return { recoveryCodes };
}
