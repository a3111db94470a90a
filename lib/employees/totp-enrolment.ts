import { db } from "@/lib/db";
import { commitWithoutAudit, type Commit } from "@/lib/audit/record-audit-event";
import { env } from "@/lib/env";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import { assertNotThrottled, recordFailure, throttleRules } from "@/lib/auth/throttle";
import { matchTotpStep, newTotpSecret, totpUri } from "@/lib/auth/totp";
import { ApiError, notFound } from "@/lib/http/api-error";
import { newRecoveryCodes, recoveryCodeRows } from "@/lib/employees/recovery-codes";

const alreadyOn = () =>
  new ApiError("err_conflict", "Two-factor authentication is already on for this employee");

/** Hands out a new secret to scan; 2FA stays off until a first code from it is confirmed. */
export async function startTotpEnrolment({ employeeId }: { employeeId: string }) {
  const employee = await db().employee.findUnique({ where: { id: employeeId } });
  if (!employee) throw notFound("Employee");
  if (employee.totpEnabledAt) throw alreadyOn();
  const secret = newTotpSecret();
  await db().employee.update({
    where: { id: employeeId },
    data: { totpPendingSecret: encryptSecret(secret, employeeId) },
  });
  return { secret, uri: totpUri({ secret, issuer: env().TOTP_ISSUER, account: employee.email }) };
}

/** Turns 2FA on with a valid first code and returns fresh recovery codes, shown this once. */
export async function confirmTotpEnrolment({
  employeeId,
  code,
  commit = commitWithoutAudit,
}: {
  employeeId: string;
  code: string;
  commit?: Commit;
}) {
  const employee = await db().employee.findUnique({ where: { id: employeeId } });
  if (!employee) throw notFound("Employee");
  if (employee.totpEnabledAt) throw alreadyOn();
  if (!employee.totpPendingSecret) {
    throw new ApiError("err_conflict", "Start enrolment first (POST /v1/employees/totp)");
  }
  const throttleKey = `totp:${employeeId}`;
  await assertNotThrottled([throttleKey]);
  const step = await matchTotpStep({ secret: decryptSecret(employee.totpPendingSecret, employeeId), code });
  if (step === null) {
    await recordFailure(throttleKey, throttleRules.totp);
    throw new ApiError("err_otp_invalid", "The code does not match; check the time on your phone and try the current code", {
      code: "does not match",
    });
  }
  const recoveryCodes = newRecoveryCodes();
  await commit(async () => {
    const tx = db();
    // Conditional on the secret that was checked, so a concurrent re-enrolment cannot be confirmed with an old code.
    const { count } = await tx.employee.updateMany({
      where: { id: employeeId, totpEnabledAt: null, totpPendingSecret: employee.totpPendingSecret },
      data: {
        totpSecret: employee.totpPendingSecret,
        totpPendingSecret: null,
        totpEnabledAt: new Date(),
        totpLastStep: step,
      },
    });
    if (count !== 1) throw alreadyOn();
    await tx.recoveryCode.deleteMany({ where: { employeeId } });
    await tx.recoveryCode.createMany({ data: recoveryCodeRows(employeeId, recoveryCodes) });
  });
  return { twoFactorEnabled: true as const, recoveryCodes };
}
