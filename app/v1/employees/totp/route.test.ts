import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { signInCounters } from "@/lib/auth/own-password";
import { signInRules } from "@/lib/auth/throttle";
import { apiKeyFor, PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, call, expectError } from "@/lib/testing/http";
import { POST as signIn } from "@/app/v1/sessions/route";
import { POST as confirm } from "./confirm/route";
import { POST as start } from "./route";

describe("POST /v1/employees/totp", () => {
  it("200: a 160-bit secret and its otpauth URI; stored only encrypted, 2FA still off", async () => {
    const { session, employee } = await signedInEmployee();
    const response = await call(start, { method: "POST", session, body: { password: PASSWORD } });
    expect(response.status).toBe(200);
    expect(response.body.secret).toMatch(/^[A-Z2-7]{32,}$/);
    const uri = new URL(response.body.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(response.body.secret);
    expect(uri.searchParams.get("issuer")).toBeTruthy();
    const row = await db().employee.findUniqueOrThrow({ where: { id: employee.id } });
    expect(row.totpPendingSecret).not.toContain(response.body.secret);
    expect(row.totpEnabledAt).toBeNull();
  });

  it("422 without the current password: a stolen session alone cannot enrol", async () => {
    const { session, employee } = await signedInEmployee();
    for (const body of [undefined, {}, { password: "" }]) {
      const response = await call(start, { method: "POST", session, body });
      expectError(response, 422, "err_validation");
      expect(response.body.details).toHaveProperty("password");
    }
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpPendingSecret).toBeNull();
  });

  it("403 err_password_incorrect with a wrong password: no secret handed out, and the attempt counts at sign-in", async () => {
    const { session, employee, email } = await signedInEmployee();
    const ip = "203.0.113.31"; // a client of its own: the per-client counter is shared by every test from one address
    const response = await call(start, { method: "POST", session, ip, body: { password: `${PASSWORD}!` } });
    expectError(response, 403, "err_password_incorrect");
    expect(response.body.details).toEqual({ password: "is not your current password" });
    expect(JSON.stringify(response.body)).not.toContain("otpauth");
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpPendingSecret).toBeNull();
    // Counted by the sign-in throttle's own counters for this e-mail and client.
    for (const { key } of signInCounters(email, ip)) {
      expect((await db().throttle.findUniqueOrThrow({ where: { key } })).count, key).toBe(1);
    }
  });

  it("429 once the sign-in throttle is full: after 5 wrong passwords even the right one is not checked, here or at sign-in", async () => {
    const { session, employee, email } = await signedInEmployee();
    const ip = "203.0.113.32";
    const wrong = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(start, { method: "POST", session, ip, body: { password: `wrong guess ${i}` } }),
      ),
    );
    const statuses = wrong.map(({ status }) => status).sort();
    expect(statuses.filter((status) => status === 403)).toHaveLength(signInRules.accountFromIp.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - signInRules.accountFromIp.limit);
    const right = await call(start, { method: "POST", session, ip, body: { password: PASSWORD } });
    expectError(right, 429, "err_rate_limited");
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpPendingSecret).toBeNull();
    // The same counter as sign-in's: guessing here is no cheaper than guessing there.
    expectError(
      await call(signIn, { method: "POST", ip, body: { email, password: PASSWORD } }),
      429,
      "err_rate_limited",
    );
  });

  it("the right password gives its attempt back", async () => {
    const { session, email } = await signedInEmployee();
    const ip = "203.0.113.33";
    for (let i = 0; i < signInRules.accountFromIp.limit + 1; i++) {
      expect((await call(start, { method: "POST", session, ip, body: { password: PASSWORD } })).status).toBe(200);
    }
    for (const { key } of signInCounters(email, ip)) {
      expect((await db().throttle.findUniqueOrThrow({ where: { key } })).count, key).toBe(0);
    }
  });

  it("re-enrolment after an admin's reset needs the password too", async () => {
    const { session, employee } = await signedInEmployee({ totp: true });
    await db().employee.update({
      where: { id: employee.id },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
    expectError(await call(start, { method: "POST", session, body: {} }), 422, "err_validation");
    expectError(
      await call(start, { method: "POST", session, body: { password: "not the password" } }),
      403,
      "err_password_incorrect",
    );
    expect((await call(start, { method: "POST", session, body: { password: PASSWORD } })).status).toBe(200);
  });

  it("409 once 2FA is on (re-enrolling would let a stolen session replace it)", async () => {
    const { session } = await signedInEmployee({ totp: true });
    const response = await call(start, { method: "POST", session, body: { password: PASSWORD } });
    expectError(response, 409, "err_conflict");
  });

  it("403 with an API key; 403 cross-site", async () => {
    const { account, session } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect((await call(start, { method: "POST", apiKey: key.secret, body: { password: PASSWORD } })).status).toBe(403);
    expect(
      (
        await call(start, {
          method: "POST",
          session,
          body: { password: PASSWORD },
          headers: { origin: "https://evil.example" },
        })
      ).status,
    ).toBe(403);
  });
});

describe("POST /v1/employees/totp/confirm", () => {
  it("200 with the current code: 2FA on, ten recovery codes stored only as hashes", async () => {
    const { session, employee } = await signedInEmployee();
    const { body } = await call(start, { method: "POST", session, body: { password: PASSWORD } });
    const code = new Authenticator(body.secret).nextCode();
    const response = await call(confirm, { method: "POST", session, body: { code } });
    expect(response.status).toBe(200);
    expect(response.body.twoFactorEnabled).toBe(true);
    expect(response.body.recoveryCodes).toHaveLength(10);
    const stored = await db().recoveryCode.findMany({ where: { employeeId: employee.id } });
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(response.body.recoveryCodes.join()).not.toContain(row.codeHash);
    const row = await db().employee.findUniqueOrThrow({ where: { id: employee.id } });
    expect(row.totpEnabledAt).not.toBeNull();
    expect(row.totpPendingSecret).toBeNull();
    // The code that confirmed enrolment has spent its step.
    const again = await call(confirm, { method: "POST", session, body: { code } });
    expect(again.status).toBe(409);
  });

  it("400 err_otp_invalid for a wrong code; 2FA stays off", async () => {
    const { session, employee } = await signedInEmployee();
    const { body } = await call(start, { method: "POST", session, body: { password: PASSWORD } });
    const response = await call(confirm, {
      method: "POST",
      session,
      body: { code: new Authenticator(body.secret).wrongCode() },
    });
    expectError(response, 400, "err_otp_invalid");
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpEnabledAt).toBeNull();
  });

  it("422 for a code that is not six digits", async () => {
    const { session } = await signedInEmployee();
    await call(start, { method: "POST", session, body: { password: PASSWORD } });
    const response = await call(confirm, { method: "POST", session, body: { code: "12ab" } });
    expect(response.status).toBe(422);
    expect(response.body.details).toHaveProperty("code");
  });

  it("409 before enrolment was started", async () => {
    const { session } = await signedInEmployee();
    const response = await call(confirm, { method: "POST", session, body: { code: "123456" } });
    expect(response.status).toBe(409);
  });

  it("429 after repeated wrong codes, even for the right one then", async () => {
    const { session } = await signedInEmployee();
    const { body } = await call(start, { method: "POST", session, body: { password: PASSWORD } });
    const authenticator = new Authenticator(body.secret);
    for (const code of authenticator.wrongCodes(5)) {
      expect((await call(confirm, { method: "POST", session, body: { code } })).status).toBe(400);
    }
    const blocked = await call(confirm, { method: "POST", session, body: { code: authenticator.nextCode() } });
    expectError(blocked, 429, "err_rate_limited");
  });
});
