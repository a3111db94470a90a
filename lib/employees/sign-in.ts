import { db } from "@/lib/db";
import { decoyPasswordHash, verifyPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { assertNotThrottled, clearThrottle, recordFailure, throttleRules } from "@/lib/auth/throttle";
import { ApiError } from "@/lib/http/api-error";
import { consumeRecoveryCode } from "@/lib/employees/recovery-codes";
import { verifyEmployeeTotp } from "@/lib/employees/verify-totp-code";

/**
 * Password, then (once 2FA is on) a current code or an unused recovery code. Failures are counted
 * per e-mail and per IP and answered 429 past the limit, before the password is even checked.
 */
export async function signIn({
  email,
  password,
  totpCode,
  ip,
}: {
  email: string;
  password: string;
  totpCode?: string;
  ip: string | null;
}) {
  const normalized = email.trim().toLowerCase();
  const accountKey = `login:email:${normalized}`;
  const ipKey = ip ? `login:ip:${ip}` : null;
  await assertNotThrottled(ipKey ? [accountKey, ipKey] : [accountKey]);

  const employee = await db().employee.findUnique({ where: { email: normalized }, include: { account: true } });
  // Unknown e-mails still cost one scrypt, so response time does not tell which addresses exist.
  const passwordOk = employee?.passwordHash
    ? await verifyPassword(password, employee.passwordHash)
    : (await verifyPassword(password, await decoyPasswordHash())) && false;
  // Failures on a known e-mail are tied to that employee, so the platform's audit trail shows them.
  const attribute = (error: ApiError) => {
    if (employee) error.actor = { type: "employee", id: employee.id, platformId: employee.account.platformId, accountId: employee.accountId };
    return error;
  };
  if (!employee || !passwordOk || employee.status !== "active") {
    await recordFailure(accountKey, throttleRules.loginAccount);
    if (ipKey) await recordFailure(ipKey, throttleRules.loginIp);
    throw attribute(new ApiError("err_unauthenticated", "The e-mail address or password is wrong"));
  }
  try {
    await checkSecondFactor(employee, totpCode);
  } catch (error) {
    throw error instanceof ApiError ? attribute(error) : error;
  }

  await clearThrottle(accountKey);
  const signedIn = await db().employee.update({
    where: { id: employee.id },
    data: { lastLoginAt: new Date() },
    include: { account: true },
  });
  const { session, cookie } = await createSession({ employeeId: employee.id, ip });
  return { employee: signedIn, account: signedIn.account, session, cookie };
}

/** Once 2FA is on: a current code (each time step once) or an unused recovery code. */
async function checkSecondFactor(employee: { id: string; totpEnabledAt: Date | null }, totpCode: string | undefined) {
  if (!employee.totpEnabledAt) return;
  const code = totpCode?.trim();
  if (!code) {
    throw new ApiError("err_otp_required", "Enter the code from your authenticator app, or a recovery code", {
      totpCode: "required",
    });
  }
  if (/^\d{6}$/.test(code)) return verifyEmployeeTotp({ employeeId: employee.id, code });
  const totpKey = `totp:${employee.id}`;
  await assertNotThrottled([totpKey]);
  if (!(await consumeRecoveryCode({ employeeId: employee.id, code }))) {
    await recordFailure(totpKey, throttleRules.totp);
    throw new ApiError("err_otp_invalid", "That code is wrong or was already used", { totpCode: "invalid" });
  }
}
