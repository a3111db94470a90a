import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

export type ThrottleRule = { limit: number; windowMs: number; blockMs: number };

const minutes = (n: number) => n * 60_000;

export const throttleRules = {
  /** Wrong passwords for one e-mail address. */
  loginAccount: { limit: 5, windowMs: minutes(15), blockMs: minutes(15) },
  /** Wrong passwords from one IP, across addresses. */
  loginIp: { limit: 20, windowMs: minutes(15), blockMs: minutes(15) },
  /** Wrong TOTP codes for one employee (sign-in, enrolment, Service-Totp-Code). */
  totp: { limit: 5, windowMs: minutes(5), blockMs: minutes(5) },
} satisfies Record<string, ThrottleRule>;

/** 429 while the key is blocked. Checked before the attempt, so a blocked caller learns nothing. */
export async function assertNotThrottled(keys: string[], now = new Date()) {
  const blocked = await db().throttle.findFirst({ where: { key: { in: keys }, blockedUntil: { gt: now } } });
  if (!blocked?.blockedUntil) return;
  const seconds = Math.ceil((blocked.blockedUntil.getTime() - now.getTime()) / 1000);
  throw new ApiError("err_rate_limited", `Too many failed attempts; try again in ${seconds} seconds`, undefined, {
    "Retry-After": String(seconds),
  });
}

/** Counts a failure in a fixed window; reaching the limit blocks the key for rule.blockMs. */
export async function recordFailure(key: string, rule: ThrottleRule, now = new Date()) {
  await db().$transaction(async (tx) => {
    const row = await tx.throttle.findUnique({ where: { key } });
    const fresh = !row || now.getTime() - row.windowStartsAt.getTime() >= rule.windowMs;
    const count = fresh ? 1 : row.count + 1;
    const blockedUntil = count >= rule.limit ? new Date(now.getTime() + rule.blockMs) : (fresh ? null : row.blockedUntil);
    await tx.throttle.upsert({
      where: { key },
      create: { key, count, windowStartsAt: now, blockedUntil },
      update: { count: count >= rule.limit ? 0 : count, windowStartsAt: fresh || count >= rule.limit ? now : row.windowStartsAt, blockedUntil },
    });
  });
}

export async function clearThrottle(key: string) {
  await db().throttle.deleteMany({ where: { key } });
}
