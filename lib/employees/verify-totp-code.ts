import { db } from "@/lib/db";
import { decryptSecret } from "@/lib/auth/encryption";
import { assertNotThrottled, recordFailure, throttleRules } from "@/lib/auth/throttle";
import { matchTotpStep } from "@/lib/auth/totp";
import { ApiError } from "@/lib/http/api-error";

/**
 * Checks a current code from an employee's authenticator and spends its time step: the step is
 * stored with a conditional update, so of two requests racing with the same code exactly one wins,
 * and that code (or any older one) is refused afterwards. Wrong codes count toward a throttle.
 */
export async function verifyEmployeeTotp({ employeeId, code }: { employeeId: string; code: string | null }) {
  const employee = await db().employee.findUnique({ where: { id: employeeId } });
  if (!employee?.totpSecret || !employee.totpEnabledAt) {
    throw new ApiError(
      "err_otp_required",
      "Two-factor authentication is not set up: enrol an authenticator app (POST /v1/employees/totp) first",
    );
  }
  if (code === null || code.trim() === "") {
    throw new ApiError("err_otp_required", "A current code from your authenticator app is required (Service-Totp-Code)");
  }
  const throttleKey = `totp:${employeeId}`;
  await assertNotThrottled([throttleKey]);
  const secret = decryptSecret(employee.totpSecret, employee.id);
  const step = await matchTotpStep({ secret, code: code.trim(), afterStep: employee.totpLastStep });
  if (step === null) {
    // A code that was valid but already spent is a replay, not guessing: do not count it.
    const spent = await matchTotpStep({ secret, code: code.trim() });
    if (spent === null) await recordFailure(throttleKey, throttleRules.totp);
    throw new ApiError("err_otp_invalid", "The authenticator code is wrong, expired or already used");
  }
  const { count } = await db().employee.updateMany({
    where: { id: employeeId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  if (count !== 1) throw new ApiError("err_otp_invalid", "The authenticator code is wrong, expired or already used");
}
