import { randomBytes, scryptSync } from "node:crypto";
import { hash as argon2Hash } from "@node-rs/argon2";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { toApiError } from "@/lib/http/api-error";
import { signInRules } from "@/lib/auth/throttle";
import { signIn } from "@/lib/auth/sign-in";
import { hashPassword } from "@/lib/auth/passwords";
import { commitWithoutAudit, type Commit } from "@/lib/audit/trail";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";

// Every password check sign-in makes, counted: the throttle must stop guesses BEFORE they are checked.
const checks = vi.hoisted(() => ({ count: 0, busy: false }));
vi.mock("@/lib/auth/passwords", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/auth/passwords")>();
  return {
    ...actual,
    verifyPassword: async (password: string, stored: string) => {
      // What the hashing cap answers when its queue is full (lib/auth/passwords.ts).
      if (checks.busy)
        throw new (await import("@/lib/errors")).DomainError("rate_limited", "busy", undefined, { retryAfter: 1 });
      checks.count += 1;
      return actual.verifyPassword(password, stored);
    },
  };
});

beforeEach(() => {
  checks.count = 0;
  checks.busy = false;
});

/** The outcome of one sign-in: 200, or the error's status and code (and Retry-After on 429). */
async function attempt(email: string, password: string, ip: string | null, totpCode?: string) {
  try {
    await signIn({ email, password, ip, totpCode });
    return { status: 200 };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const answer = toApiError(error);
    return { status: answer.status, code: answer.code, retryAfter: answer.headers?.["Retry-After"] };
  }
}

const statuses = (results: Array<{ status: number }>) =>
  results.reduce<Record<number, number>>((tally, { status }) => ({ ...tally, [status]: (tally[status] ?? 0) + 1 }), {});

const { accountFromIp, ip: perIp, account: perAccount } = signInRules;

describe("sign-in throttling", () => {
  it("30 wrong passwords at once for one e-mail: at most the limit are checked, the rest answer 429 with Retry-After", async () => {
    const { email } = await signedInEmployee();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => attempt(email, `wrong guess ${i}`, "198.51.100.20")),
    );
    expect(checks.count).toBe(accountFromIp.limit);
    expect(statuses(results)).toEqual({ 401: accountFromIp.limit, 429: 30 - accountFromIp.limit });
    for (const refused of results.filter((result) => result.status === 429)) {
      expect(refused.code).toBe("err_rate_limited");
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(accountFromIp.windowMs / 1000);
    }
    // Blocked means blocked: even the right password is not checked from there.
    expect(await attempt(email, PASSWORD, "198.51.100.20")).toMatchObject({ status: 429 });
    expect(checks.count).toBe(accountFromIp.limit);
  });

  it("a stranger's failures from one IP do not lock the employee out from another", async () => {
    const { email } = await signedInEmployee();
    await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(email, `stranger ${i}`, "203.0.113.66")));
    expect(await attempt(email, PASSWORD, "203.0.113.66")).toMatchObject({ status: 429 });
    expect(await attempt(email, PASSWORD, "198.51.100.7")).toEqual({ status: 200 });
    // ... and after the stranger's 30, the employee still has all their own tries from their IP.
    for (let i = 0; i < accountFromIp.limit - 1; i++)
      expect(await attempt(email, `typo ${i}`, "198.51.100.8")).toMatchObject({ status: 401 });
    expect(await attempt(email, PASSWORD, "198.51.100.8")).toEqual({ status: 200 });
  });

  it("the right password gives its attempt back, and a completed sign-in clears that client's count", async () => {
    const { email } = await signedInEmployee();
    const ip = "198.51.100.30";
    for (let i = 0; i < accountFromIp.limit - 1; i++)
      expect(await attempt(email, `typo ${i}`, ip)).toMatchObject({ status: 401 });
    expect(await attempt(email, PASSWORD, ip)).toEqual({ status: 200 });
    // Cleared: a full set of tries again.
    for (let i = 0; i < accountFromIp.limit; i++)
      expect(await attempt(email, `typo again ${i}`, ip)).toMatchObject({ status: 401 });
    expect(await attempt(email, PASSWORD, ip)).toMatchObject({ status: 429 });
  });

  it("with 2FA on, the right password without a code does not use up password tries", async () => {
    const { email, authenticator } = await signedInEmployee({ totp: true });
    const ip = "198.51.100.31";
    for (let i = 0; i < accountFromIp.limit + 3; i++)
      expect(await attempt(email, PASSWORD, ip)).toMatchObject({ status: 400, code: "err_otp_required" });
    expect(await attempt(email, PASSWORD, ip, authenticator!.nextCode())).toEqual({ status: 200 });
  });

  it("per IP: failures across many e-mails from one IP stop that IP, not others; refusals by a narrower counter do not count", async () => {
    const { email } = await signedInEmployee();
    const ip = "203.0.113.70";
    // 30 at one address: only the per-(account, IP) limit's worth reach the per-IP counter.
    await Promise.all(Array.from({ length: 30 }, (_, i) => attempt("target@example.com", `guess ${i}`, ip)));
    for (let i = 0; i < perIp.limit - accountFromIp.limit; i++) {
      expect(await attempt(`sprayed${i}@example.com`, "guess", ip)).toMatchObject({ status: 401 });
    }
    expect(await attempt(email, PASSWORD, ip)).toMatchObject({ status: 429, code: "err_rate_limited" });
    expect(await attempt("another@example.com", "guess", ip)).toMatchObject({ status: 429 });
    expect(await attempt(email, PASSWORD, "203.0.113.71")).toEqual({ status: 200 });
  });

  it("per account: many clients together meet a much higher ceiling, after which the password is not checked", async () => {
    const { email } = await signedInEmployee();
    expect(perAccount.limit).toBeGreaterThanOrEqual(10 * accountFromIp.limit);
    const clients = Math.ceil(perAccount.limit / accountFromIp.limit);
    for (let client = 0; client < clients; client++) {
      const results = await Promise.all(
        Array.from({ length: accountFromIp.limit }, (_, i) => attempt(email, `botnet ${i}`, `192.0.2.${client + 1}`)),
      );
      expect(statuses(results)).toEqual({ 401: accountFromIp.limit });
    }
    checks.count = 0;
    const refused = await attempt(email, PASSWORD, "198.51.100.200");
    expect(refused).toMatchObject({ status: 429, code: "err_rate_limited" });
    expect(checks.count).toBe(0);
  });

  it("counts IPv6 callers per /64, and IPv4-mapped IPv6 as its IPv4", async () => {
    const { email } = await signedInEmployee();
    for (let i = 1; i <= accountFromIp.limit; i++)
      expect(await attempt(email, "wrong", `2001:db8:aa:1::${i.toString(16)}`)).toMatchObject({ status: 401 });
    expect(await attempt(email, PASSWORD, "2001:db8:aa:1:ffff:ffff:ffff:fffe")).toMatchObject({ status: 429 });
    expect(await attempt(email, PASSWORD, "2001:db8:aa:2::1")).toEqual({ status: 200 });

    const other = await signedInEmployee();
    for (let i = 0; i < accountFromIp.limit; i++)
      expect(await attempt(other.email, "wrong", "::ffff:203.0.113.90")).toMatchObject({ status: 401 });
    expect(await attempt(other.email, PASSWORD, "203.0.113.90")).toMatchObject({ status: 429 });
  });

  it("an attempt the busy hashing queue turned away is given back: it was never checked", async () => {
    const { email } = await signedInEmployee();
    checks.busy = true;
    for (let i = 0; i < 3; i++)
      expect(await attempt(email, "wrong", "198.51.100.60")).toMatchObject({ status: 429, retryAfter: "1" });
    checks.busy = false;
    for (let i = 0; i < accountFromIp.limit; i++)
      expect(await attempt(email, "wrong", "198.51.100.60")).toMatchObject({ status: 401 });
    expect(await attempt(email, PASSWORD, "198.51.100.60")).toMatchObject({ status: 429 });
  });

  it("an unknown e-mail is counted the same way (and still costs one password check)", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => attempt("nobody.here@example.com", "guess", "198.51.100.40")),
    );
    expect(statuses(results)).toEqual({ 401: accountFromIp.limit, 429: 12 - accountFromIp.limit });
    expect(checks.count).toBe(accountFromIp.limit);
  });
});

describe("password hashes on sign-in", () => {
  /** The scrypt format hashes were stored in before argon2id. */
  const scryptHash = (password: string) => {
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
    return `scrypt$1024$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
  };

  it("an old scrypt hash still signs in, and is replaced by argon2id then (not on a wrong password)", async () => {
    const { email, employee } = await signedInEmployee();
    const legacy = scryptHash(PASSWORD);
    await db().employee.update({ where: { id: employee.id }, data: { passwordHash: legacy } });
    expect(await attempt(email, "not the password", "198.51.100.50")).toMatchObject({ status: 401 });
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).passwordHash).toBe(legacy);
    expect(await attempt(email, PASSWORD, "198.51.100.50")).toEqual({ status: 200 });
    const upgraded = (await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).passwordHash!;
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(await attempt(email, PASSWORD, "198.51.100.50")).toEqual({ status: 200 });
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).passwordHash).toBe(upgraded);
  });

  it("an argon2id hash at another cost is re-hashed at today's on sign-in", async () => {
    const { email, employee } = await signedInEmployee();
    const older = await argon2Hash(PASSWORD, { memoryCost: 512, timeCost: 1, parallelism: 1 });
    await db().employee.update({ where: { id: employee.id }, data: { passwordHash: older } });
    expect(await attempt(email, PASSWORD, "198.51.100.51")).toEqual({ status: 200 });
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).passwordHash).toMatch(
      /^\$argon2id\$v=19\$m=256,t=1,p=1\$/,
    );
  });
});

describe("a change that commits while a sign-in is hashing wins", () => {
  /** A commit that lets `meanwhile` commit first, as a concurrent request would between the hash check and the sign-in's transaction. */
  const after =
    (meanwhile: () => Promise<unknown>): Commit =>
    async (work, who) => {
      await meanwhile();
      return commitWithoutAudit(work, who);
    };
  const sessionsOf = (employeeId: string) => db().session.count({ where: { employeeId } });

  it("a password change: the old password makes no session (401)", async () => {
    const { email, employee } = await signedInEmployee();
    const before = await sessionsOf(employee.id);
    const changed = after(async () =>
      db().employee.update({
        where: { id: employee.id },
        data: { passwordHash: await hashPassword("a brand new long passphrase") },
      }),
    );
    await expect(signIn({ email, password: PASSWORD, ip: "198.51.100.60", commit: changed })).rejects.toMatchObject({
      kind: "unauthenticated",
    });
    expect(await sessionsOf(employee.id)).toBe(before);
  });

  it("a deactivation: no session (401)", async () => {
    const { email, employee } = await signedInEmployee();
    const before = await sessionsOf(employee.id);
    const deactivated = after(() =>
      db().employee.update({ where: { id: employee.id }, data: { status: "deactivated", deactivatedAt: new Date() } }),
    );
    await expect(signIn({ email, password: PASSWORD, ip: "198.51.100.61", commit: deactivated })).rejects.toMatchObject(
      { kind: "unauthenticated" },
    );
    expect(await sessionsOf(employee.id)).toBe(before);
  });

  it("nothing in between: signed in, even right after the old hash was upgraded", async () => {
    const { email, employee } = await signedInEmployee();
    const older = await argon2Hash(PASSWORD, { memoryCost: 512, timeCost: 1, parallelism: 1 });
    await db().employee.update({ where: { id: employee.id }, data: { passwordHash: older } });
    const before = await sessionsOf(employee.id);
    await expect(
      signIn({ email, password: PASSWORD, ip: "198.51.100.62", commit: after(async () => undefined) }),
    ).resolves.toMatchObject({ employee: { id: employee.id } });
    expect(await sessionsOf(employee.id)).toBe(before + 1);
  });
});
