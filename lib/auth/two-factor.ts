import { db, inTransaction, lockRow } from "@/lib/db";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { env } from "@/lib/env";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import { verifyOwnPassword } from "@/lib/auth/own-password";
import { oneTimeCodeRule, takeSlot, throttleKey } from "@/lib/auth/throttle";
import { matchTotpStep, newTotpSecret, totpUri } from "@/lib/auth/totp";
import { DomainError, notFound } from "@/lib/errors";
import { randomBytes } from "node:crypto";
import { newId } from "@/lib/ids/generate";
import { sha256 } from "@/lib/auth/tokens";

const alreadyOn = () => new DomainError("conflict", "Two-factor authentication is already on for this employee");

/**
 * Hands out a new secret to scan once the employee's current password is proven (a stolen session
 * alone cannot enrol or re-enrol its own authenticator); 2FA stays off until a first code from it
 * is confirmed. The password check is counted by the sign-in throttle (lib/auth/own-password.ts).
 */
export async function startTotpEnrolment({
  employeeId,
  password,
  ip,
  commit = commitWithoutAudit,
}: {
  employeeId: string;
  password: string;
  ip: string | null;
  commit?: Commit;
}) {
  const employee = await db().employee.findUnique({ where: { id: employeeId } });
  if (!employee) throw notFound("Employee");
  if (employee.totpEnabledAt) throw alreadyOn();
  await verifyOwnPassword({ employeeId, password, ip });
  const secret = newTotpSecret();
  // Conditional, so enrolment finished by a concurrent request in the meantime is not given a new pending secret.
  const { count } = await commit(
    async () =>
      await db().employee.updateMany({
        where: { id: employeeId, totpEnabledAt: null },
        data: { totpPendingSecret: encryptSecret(secret, employeeId) },
      }),
  );
  if (count !== 1) throw alreadyOn();
  return { secret, uri: totpUri({ secret, issuer: env().TOTP_ISSUER, account: employee.email }) };
}

/**
 * Takes one attempt from the employee's one-time-code counter BEFORE a code is checked: one
 * conditional statement, so however many codes arrive at once (on any instance), at most
 * oneTimeCodeRule.limit are ever checked in any span of its window; the rest answer 429 with Retry-After.
 * The caller refunds the attempt when the code proves right, so only wrong codes add up.
 */
function takeOneTimeCodeAttempt(employeeId: string) {
  return takeSlot(throttleKey("totp", employeeId), oneTimeCodeRule);
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
    throw new DomainError("conflict", "Start enrolment first (POST /v1/employees/totp)");
  }
  const attempt = await takeOneTimeCodeAttempt(employeeId);
  const step = await matchTotpStep({ secret: decryptSecret(employee.totpPendingSecret, employeeId), code });
  if (step === null) {
    throw new DomainError(
      "otp_invalid",
      "The code does not match; check the time on your phone and try the current code",
      {
        code: "does not match",
      },
    );
  }
  await attempt.refund();
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

/**
 * Checks a current code from an employee's authenticator and spends its time step: the step is
 * stored with a conditional update, so of two requests racing with the same code exactly one wins,
 * and that code (or any older one) is refused afterwards. Every code is counted before it is
 * checked (takeOneTimeCodeAttempt); a right one, or a replay of one already spent, is given back.
 */
export async function verifyEmployeeTotp({ employeeId, code }: { employeeId: string; code: string | null }) {
  const employee = await db().employee.findUnique({ where: { id: employeeId } });
  if (!employee?.totpSecret || !employee.totpEnabledAt) {
    throw new DomainError(
      "otp_required",
      "Two-factor authentication is not set up: enrol an authenticator app (POST /v1/employees/totp) first",
    );
  }
  if (code === null || code.trim() === "") {
    throw new DomainError("otp_required", "A current code from your authenticator app is required (Service-Totp-Code)");
  }
  const attempt = await takeOneTimeCodeAttempt(employeeId);
  const step = await matchTotpStep({ secret: decryptSecret(employee.totpSecret, employee.id), code: code.trim() });
  if (step === null) throw new DomainError("otp_invalid", "The authenticator code is wrong, expired or already used");
  // Right, so no guess: given back even when its step is already spent (a replay is refused below, not counted).
  await attempt.refund();
  if (employee.totpLastStep !== null && step <= employee.totpLastStep) {
    throw new DomainError("otp_invalid", "The authenticator code is wrong, expired or already used");
  }
  const { count } = await db().employee.updateMany({
    where: { id: employeeId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  if (count !== 1) throw new DomainError("otp_invalid", "The authenticator code is wrong, expired or already used");
}

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
const COUNT = 10;

/** Normalised form: lower case, no separators, so "ABCD-EFGH..." and "abcdefgh..." are the same code. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Ten codes of 16 base32 characters (80 random bits each), grouped in fours for reading. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: COUNT }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (byte) => alphabet[byte % 32]).join("");
    return chars.match(/.{4}/g)!.join("-");
  });
}

export function recoveryCodeRows(employeeId: string, codes: string[]) {
  return codes.map((code) => ({ id: newId("rc"), employeeId, codeHash: sha256(normalizeRecoveryCode(code)) }));
}

/** Spends a recovery code: true only for an unused code of this employee, and only once even under races. */
export async function consumeRecoveryCode({
  employeeId,
  code,
}: {
  employeeId: string;
  code: string;
}): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 16) return false;
  const { count } = await db().recoveryCode.updateMany({
    where: { employeeId, codeHash: sha256(normalized), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1;
}

/** Sign-in's recovery-code step: counted before the code is checked, as a TOTP code is; a code that works is given back. */
export async function verifyRecoveryCode({ employeeId, code }: { employeeId: string; code: string }) {
  const attempt = await takeOneTimeCodeAttempt(employeeId);
  if (!(await consumeRecoveryCode({ employeeId, code }))) {
    throw new DomainError("otp_invalid", "That code is wrong or was already used", { totpCode: "invalid" });
  }
  await attempt.refund();
}

/** Ten new recovery codes, shown this once; the old set stops working in the same transaction. */
export async function regenerateRecoveryCodes({ employeeId }: { employeeId: string }) {
  const recoveryCodes = newRecoveryCodes();
  await inTransaction(async () => {
    // The employee's row held: of two regenerations at once, the second replaces the first's set
    // rather than adding to it (each deletes what it sees, then inserts).
    await lockRow("Employee", employeeId, "change");
    await db().recoveryCode.deleteMany({ where: { employeeId } });
    await db().recoveryCode.createMany({ data: recoveryCodeRows(employeeId, recoveryCodes) });
  });
  return { recoveryCodes };
}
