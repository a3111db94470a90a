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
  if (!employee || !passwordOk || employee.status !== "active") {
    await recordFailure(accountKey, throttleRules.loginAccount);
    if (ipKey) await recordFailure(ipKey, throttleRules.loginIp);
    throw new ApiError("err_unauthenticated", "The e-mail address or password is wrong");
  }

  if (employee.totpEnabledAt) {
    const code = totpCode?.trim();
    if (!code) {
      throw new ApiError("err_otp_required", "Enter the code from your authenticator app, or a recovery code", {
        totpCode: "required",
      });
    }
    if (/^\d{6}$/.test(code)) {
      await verifyEmployeeTotp({ employeeId: employee.id, code });
    } else {
      const totpKey = `totp:${employee.id}`;
      await assertNotThrottled([totpKey]);
      if (!(await consumeRecoveryCode({ employeeId: employee.id, code }))) {
        await recordFailure(totpKey, throttleRules.totp);
        throw new ApiError("err_otp_invalid", "That code is wrong or was already used", { totpCode: "invalid" });
      }
    }
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
