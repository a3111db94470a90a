import { db, isUniqueViolation } from "@/lib/db";
import { DomainError } from "@/lib/errors";

/** Every kind of counter, and the parts that name one counter of that kind. */
type ThrottleSubjects = {
  /** TOTP or recovery codes of one employee checked and found wrong (sign-in, enrolment, Service-Totp-Code). */
  totp: [employeeId: string];
  /** Sign-in guesses for one e-mail from one client group (lib/net/ip.ts throttleGroup). */
  "signin:account-ip": [email: string, client: string];
  /** Sign-in guesses from one client group, across e-mail addresses. */
  "signin:ip": [client: string];
  /** Sign-in guesses for one e-mail from everywhere. */
  "signin:account": [email: string];
  /** Wrong current passwords given when an employee changes their own. */
  "password-change": [employeeId: string];
  /** Passkey sign-in challenges handed to one client group (each is a row until it expires). */
  "passkey-options:ip": [client: string];
  /** Single sign-ons started from one client group (each one a stored state and a call to the provider). */
  "sso:start-ip": [client: string];
};

export type ThrottleKind = keyof ThrottleSubjects;

/** A counter's name in the throttle table; only throttleKey() makes one, so two flows cannot spell one counter two ways. */
export type ThrottleKey = string & { readonly __throttleKey: true };

/** `totp:emp_1`, `signin:account-ip:a@example.com|203.0.113.7`: the kind, then its parts joined by `|`. */
export function throttleKey<K extends ThrottleKind>(kind: K, ...parts: ThrottleSubjects[K]): ThrottleKey {
  return `${kind}:${parts.join("|")}` as ThrottleKey;
}

const minutes = (n: number) => n * 60_000;

export async function clearThrottle(key: ThrottleKey) {
  await db().throttle.deleteMany({ where: { key } });
}

// ---------------------------------------------------------------------------------------------
// Every password or one-time code is counted BEFORE it is checked, by one conditional statement per
// counter, so concurrent requests (on one instance or several) cannot all slip past a check made
// before any of them counted. An attempt that proves right is refunded, so the counters hold wrong
// guesses only.

export type AttemptRule = { limit: number; windowMs: number };

export const signInRules = {
  /** Guesses for one e-mail from one client (an IPv4 address, or an IPv6 /64). */
  accountFromIp: { limit: 5, windowMs: minutes(15) },
  /** Guesses from one client, across e-mail addresses. */
  ip: { limit: 20, windowMs: minutes(15) },
  /**
   * Guesses for one e-mail from everywhere: much higher, so a stranger cannot lock a known employee
   * out from elsewhere (a stranger's own counters stop them long before), yet a spread-out attack
   * on one account still meets a ceiling.
   */
  account: { limit: 100, windowMs: minutes(15) },
} satisfies Record<string, AttemptRule>;

/**
 * One-time codes (TOTP or recovery) of one employee, wherever they are checked: at most 5 wrong
 * ones in any 5 minutes, however many arrive at once (takeSlot).
 */
export const oneTimeCodeRule: AttemptRule = { limit: 5, windowMs: minutes(5) };

/**
 * Passkey sign-in challenges for one client (an IPv4 address, or an IPv6 /64): the route is public and
 * each answer stores a challenge, so a stranger must not fill the table. A person signing in takes one.
 */
export const passkeyOptionsRule: AttemptRule = { limit: 60, windowMs: minutes(15) };

export type TakenAttempt = { key: ThrottleKey; windowStartsAt: Date };

/**
 * Takes one attempt from `key`'s fixed window, or returns how long until the window ends when it
 * is full. Each step is one statement whose condition is re-checked by the database under the row
 * lock (SQLite's writer lock, PostgreSQL's row lock): a counter never passes its limit however many
 * requests race, and a full counter is never written to, so refused attempts do not count.
 * It must commit on its own: inside a transaction that a failed sign-in rolls back, nothing would count.
 */
export async function takeAttempt(
  key: ThrottleKey,
  rule: AttemptRule,
  now = new Date(),
): Promise<TakenAttempt | { retryAfterMs: number }> {
  const windowFloor = new Date(now.getTime() - rule.windowMs);
  for (let round = 0; round < 5; round++) {
    // A live window with room left: count this attempt in it.
    const [counted] = await db().throttle.updateManyAndReturn({
      where: { key, windowStartsAt: { gt: windowFloor }, count: { lt: rule.limit } },
      data: { count: { increment: 1 } },
      select: { windowStartsAt: true },
    });
    if (counted) return { key, windowStartsAt: counted.windowStartsAt };
    // A window that has ended: this attempt starts the next one.
    const [restarted] = await db().throttle.updateManyAndReturn({
      where: { key, windowStartsAt: { lte: windowFloor } },
      data: { count: 1, windowStartsAt: now, blockedUntil: null },
      select: { windowStartsAt: true },
    });
    if (restarted) return { key, windowStartsAt: restarted.windowStartsAt };
    const row = await db().throttle.findUnique({ where: { key } });
    if (row && row.windowStartsAt > windowFloor && row.count >= rule.limit) {
      // A concurrent request may have opened the window a moment after this one read its clock: never more than a window.
      return { retryAfterMs: Math.min(rule.windowMs, row.windowStartsAt.getTime() + rule.windowMs - now.getTime()) };
    }
    if (row) continue; // It changed in between (a refund, a new window): try again.
    try {
      await db().throttle.create({ data: { key, count: 1, windowStartsAt: now } });
      return { key, windowStartsAt: now };
    } catch (error) {
      // Another request created it first: count against that row on the next round.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  // The row kept changing under this attempt (a crowd on one counter): refuse this one, briefly.
  return { retryAfterMs: 1000 };
}

/** Gives back an attempt taken by takeAttempt (only within the window it was taken in). */
export async function refundAttempt(taken: TakenAttempt) {
  await db().throttle.updateMany({
    where: { key: taken.key, windowStartsAt: taken.windowStartsAt, count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}

/**
 * Takes one attempt from every counter in order, or none: at the first full one, the attempts
 * already taken are given back and the caller gets 429 with Retry-After. Put the narrowest counter
 * first, so a caller stopped by their own counter never touches the wider ones.
 */
export async function takeAttempts(
  counters: Array<{ key: ThrottleKey; rule: AttemptRule }>,
  now = new Date(),
): Promise<{ refund: () => Promise<void> }> {
  const taken: TakenAttempt[] = [];
  const refund = async () => {
    for (const attempt of taken.splice(0)) await refundAttempt(attempt);
  };
  for (const { key, rule } of counters) {
    const result = await takeAttempt(key, rule, now);
    if ("retryAfterMs" in result) {
      await refund();
      throw rateLimited(result.retryAfterMs);
    }
    taken.push(result);
  }
  return { refund };
}

function rateLimited(retryAfterMs: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new DomainError("rate_limited", `Too many failed attempts; try again in ${seconds} seconds`, undefined, {
    retryAfter: seconds,
  });
}

/**
 * Takes one of `rule.limit` single-use slots of `key`, each free again `rule.windowMs` after it was
 * last taken, or answers 429 with Retry-After when none is: at most `limit` attempts in ANY span of
 * `windowMs`, where one fixed window would let twice its limit through across its edge (the limit
 * at the end of one window, the limit again at the start of the next). Each slot is a counter of
 * limit 1 taken by takeAttempt's conditional statements, so slots race as safely as counters do.
 * A slot given back (refund) is free at once, and its next use starts a window of its own.
 */
export async function takeSlot(
  key: ThrottleKey,
  rule: AttemptRule,
  now = new Date(),
): Promise<{ refund: () => Promise<void> }> {
  let retryAfterMs = rule.windowMs;
  for (let slot = 0; slot < rule.limit; slot++) {
    const taken = await takeAttempt(`${key}#${slot}` as ThrottleKey, { limit: 1, windowMs: rule.windowMs }, now);
    if (!("retryAfterMs" in taken)) {
      return {
        refund: async () => {
          await db().throttle.updateMany({
            where: { key: taken.key, windowStartsAt: taken.windowStartsAt },
            data: { count: 0, windowStartsAt: new Date(0) },
          });
        },
      };
    }
    retryAfterMs = Math.min(retryAfterMs, taken.retryAfterMs);
  }
  throw rateLimited(retryAfterMs);
}
