import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/passwords";
import { signInRules, takeAttempts, throttleKey } from "@/lib/auth/throttle";
import { DomainError } from "@/lib/errors";
import { throttleGroup } from "@/lib/net/ip";

/**
 * The sign-in counters one password attempt for `email` from `ip` takes: per (e-mail, client), per
 * client (an IPv4 address or an IPv6 /64) and per e-mail from everywhere, narrowest first.
 */
export function signInCounters(email: string, ip: string | null) {
  const normalized = email.trim().toLowerCase();
  const client = throttleGroup(ip);
  return [
    { key: throttleKey("signin:account-ip", normalized, client), rule: signInRules.accountFromIp },
    { key: throttleKey("signin:ip", client), rule: signInRules.ip },
    { key: throttleKey("signin:account", normalized), rule: signInRules.account },
  ];
}

/**
 * Checks the current password of a signed-in employee who is about to change a second factor, so a
 * stolen session alone is not enough. The attempt is taken from the sign-in counters of their e-mail
 * and this client before the password is checked (429 when full, and then it is not checked), and
 * given back when the password is right: guessing here costs exactly what guessing at sign-in does.
 */
export async function verifyOwnPassword({
  employeeId,
  password,
  ip,
}: {
  employeeId: string;
  password: string;
  ip: string | null;
}) {
  const employee = await db().employee.findUniqueOrThrow({ where: { id: employeeId } });
  if (!(await passwordMatchesCounted(employee.passwordHash, password, signInCounters(employee.email, ip)))) {
    throw new DomainError("password_incorrect", "The password is not your current password", {
      password: "is not your current password",
    });
  }
}

/**
 * Whether `password` matches `passwordHash`, one attempt taken from `counters` before it is checked
 * (429 when one is full, and then it is not checked) and given back when it is right, or when it could
 * not be checked (the hashing queue was full): the counters hold wrong guesses only.
 */
export async function passwordMatchesCounted(
  passwordHash: string | null,
  password: string,
  counters: Parameters<typeof takeAttempts>[0],
) {
  const attempt = await takeAttempts(counters);
  let right: boolean;
  try {
    right = passwordHash !== null && (await verifyPassword(password, passwordHash));
  } catch (error) {
    await attempt.refund();
    throw error;
  }
  if (right) await attempt.refund();
  return right;
}
