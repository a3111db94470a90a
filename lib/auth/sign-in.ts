import { db } from "@/lib/db";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from "@/lib/auth/passwords";
import { createSession, ssoRequired } from "@/lib/auth/sessions";
import { clearThrottle, signInRules, takeAttempts, throttleKey } from "@/lib/auth/throttle";
import { passwordMatchesCounted, signInCounters } from "@/lib/auth/own-password";
import { DomainError } from "@/lib/errors";
import { verifyEmployeeTotp, verifyRecoveryCode } from "@/lib/auth/two-factor";
import { presentAccount } from "@/lib/accounts/schemas";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { presentEmployee } from "@/lib/employees/schemas";
import type { Account, Employee } from "@/lib/generated/prisma/client";
import { verifyPasskeyAssertion, type AssertionCheck } from "@/lib/passkeys/assertions";
import { passwordSignInRefused } from "@/lib/sso/connection";

/** A passkey offered as the second factor: the assertion and what checking it needs. */
export type SignInPasskey = Pick<AssertionCheck, "assertion" | "rp"> & { requestId: string };

/**
 * Password, then (once 2FA is on) a current code or an unused recovery code.
 *
 * Each attempt is counted before the password is checked, per (e-mail, client), per client and per
 * e-mail (a much higher limit), where a client is an IPv4 address or an IPv6 /64; past a limit the
 * answer is 429 and the password is never checked. A right password gives its attempt back, and a
 * completed sign-in clears that (e-mail, client) counter, so only wrong guesses add up.
 */
export async function signIn({
  email,
  password,
  totpCode,
  passkey,
  ip,
  commit = commitWithoutAudit,
}: {
  email: string;
  password: string;
  totpCode?: string;
  /** In place of `totpCode`: a passkey's assertion (never in place of the password). */
  passkey?: SignInPasskey;
  ip: string | null;
  /** Runs the sign-in's writes (last sign-in time, the session) in one transaction with its audit record. */
  commit?: Commit;
}) {
  const normalized = email.trim().toLowerCase();
  const counters = signInCounters(normalized, ip);
  const attempt = await takeAttempts(counters);
  const { employee, passwordOk } = await checkPassword(normalized, password, attempt);
  // Failures on a known e-mail are tied to that employee, so the platform's audit trail shows them.
  const attribute = (error: DomainError) => {
    if (employee) error.actor = actorOf(employee);
    return error;
  };
  if (!employee || !passwordOk || employee.status !== "active") throw attribute(wrongCredentials());
  // The right password is no guess: from here on the second factor has its own throttle.
  await attempt.refund();
  // Told only to whoever knows the password: the platform signs in through its provider (owners excepted).
  if (await passwordSignInRefused(employee)) throw attribute(ssoRequired());
  try {
    if (passkey) await checkPasskey(employee, normalized, passkey, ip);
    else await checkSecondFactor(employee, totpCode);
  } catch (error) {
    throw error instanceof DomainError ? attribute(error) : error;
  }

  await clearThrottle(counters[0]!.key);
  const verifiedHash = await upgradeHash(employee.id, employee.passwordHash!, password);
  const { signedIn, session, cookie } = await commit(async () => {
    // Conditional on the hash just verified and on being active: a password change or a deactivation
    // that committed while this sign-in was hashing wins, and no session is made.
    const { count } = await db().employee.updateMany({
      where: { id: employee.id, passwordHash: verifiedHash, status: "active" },
      data: { lastLoginAt: new Date() },
    });
    if (count !== 1) throw attribute(wrongCredentials());
    const signedIn = await db().employee.findUniqueOrThrow({ where: { id: employee.id }, include: { account: true } });
    return { signedIn, ...(await createSession({ employeeId: employee.id, ip })) };
  }, actorOf(employee));
  return { employee: signedIn, account: signedIn.account, session, cookie };
}

const wrongCredentials = () => new DomainError("unauthenticated", "The e-mail address or password is wrong");

const findEmployee = (email: string) => db().employee.findUnique({ where: { email }, include: { account: true } });

type EmployeeWithAccount = NonNullable<Awaited<ReturnType<typeof findEmployee>>>;

const actorOf = (employee: EmployeeWithAccount) => ({
  type: "employee" as const,
  id: employee.id,
  platformId: employee.account.platformId,
  accountId: employee.accountId,
});

/**
 * The employee the e-mail names (if any) and whether the password is theirs. Unknown e-mails still
 * cost one hash, so response time does not tell which addresses exist. An attempt that could not be
 * checked (the hashing queue was full, say) does not count.
 */
async function checkPassword(email: string, password: string, attempt: { refund: () => Promise<void> }) {
  try {
    const employee = await findEmployee(email);
    const passwordOk = employee?.passwordHash
      ? await verifyPassword(password, employee.passwordHash)
      : (await verifyPassword(password, await decoyPasswordHash())) && false;
    return { employee, passwordOk };
  } catch (error) {
    await attempt.refund();
    throw error;
  }
}

/**
 * Replaces a hash made by an older scheme (scrypt) or at another cost with argon2id at today's
 * cost, now that the password is known to be right. Only if the stored hash is still the one
 * verified (a password change in between wins); a busy hashing queue just leaves it for next time.
 * Answers the hash that stands for the verified password afterwards.
 */
async function upgradeHash(employeeId: string, stored: string, password: string): Promise<string> {
  if (!needsRehash(stored)) return stored;
  let passwordHash: string;
  try {
    passwordHash = await hashPassword(password);
  } catch (error) {
    if (error instanceof DomainError) return stored;
    throw error;
  }
  const { count } = await db().employee.updateMany({
    where: { id: employeeId, passwordHash: stored },
    data: { passwordHash },
  });
  // The hash now stored for the password just verified (the sign-in's commit is conditional on it).
  return count === 1 ? passwordHash : stored;
}

/** Once 2FA is on: a current code (each time step once) or an unused recovery code. */
async function checkSecondFactor(employee: { id: string; totpEnabledAt: Date | null }, totpCode: string | undefined) {
  if (!employee.totpEnabledAt) return;
  const code = totpCode?.trim();
  if (!code) {
    throw new DomainError("otp_required", "Enter the code from your authenticator app, or a recovery code", {
      totpCode: "required",
    });
  }
  if (/^\d{6}$/.test(code)) return verifyEmployeeTotp({ employeeId: employee.id, code });
  return verifyRecoveryCode({ employeeId: employee.id, code });
}

/** A passkey as the second factor, only once the password proved right; refused as a wrong password is (401). */
function checkPasskey(employee: { id: string }, email: string, passkey: SignInPasskey, ip: string | null) {
  return verifyPasskeyAssertion({
    employeeId: employee.id,
    assertion: passkey.assertion,
    rp: passkey.rp,
    purpose: "sign_in",
    email,
    refusal: () => new DomainError("unauthenticated", "The passkey was not accepted", { passkey: "not accepted" }),
    request: { ip, requestId: passkey.requestId },
  });
}

/** The signed-in employee as the dashboard needs it; `account` is the platform's own account, which holds the settings. */
export function presentSession({
  employee,
  account,
  session,
}: {
  employee: Employee;
  account: Account;
  session: { expiresAt: Date; viaSso: boolean };
}) {
  return {
    employee: presentEmployee(employee),
    account: presentAccount(account),
    expiresAt: session.expiresAt,
    permissions: [...ROLE_PERMISSIONS[employee.role]],
    settings: { requireTwoFactor: account.requireTwoFactor, fourEyesApproval: account.fourEyesApproval },
    viaSso: session.viaSso,
  };
}

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
  const counters = [{ key: throttleKey("password-change", employeeId), rule: signInRules.accountFromIp }];
  if (!(await passwordMatchesCounted(employee.passwordHash, currentPassword, counters))) {
    throw new DomainError("invalid", "currentPassword: is not your current password", {
      currentPassword: "is not your current password",
    });
  }
  const passwordHash = await hashPassword(newPassword);
  const now = new Date();
  const ended = await commit(async () => {
    // The new password moves the employee's security stamp: a pending password-reset link stops working,
    // so a copy of it elsewhere cannot undo this change.
    await db().employee.update({ where: { id: employeeId }, data: { passwordHash } });
    return db().session.updateMany({
      where: { employeeId, revokedAt: null, id: { not: sessionId } },
      data: { revokedAt: now },
    });
  });
  return { passwordChanged: true as const, endedSessions: ended.count };
}
