import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, expectError, sessionFrom } from "@/lib/testing/http";
import { createSession } from "@/lib/auth/sessions";
import { sha256 } from "@/lib/auth/tokens";
import { apiKeyFor, PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { DELETE as endSession } from "./[id]/route";
import { GET as whoAmI } from "./current/route";
import { GET, POST } from "./route";

const signIn = (body: object, ip = "198.51.100.1") => call(POST, { method: "POST", body, ip });

describe("POST /v1/sessions", () => {
  it("200 with the right password: a working session cookie, lastLoginAt set", async () => {
    const { email, employee } = await signedInEmployee();
    const response = await signIn({ email: email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.employee.id).toBe(employee.id);
    const me = await call(whoAmI, { session: sessionFrom(response.headers) });
    expect(me.status).toBe(200);
    expect(me.body.employee.email).toBe(email);
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).lastLoginAt).not.toBeNull();
  });

  it("401 for a wrong password or an unknown e-mail, with the same message", async () => {
    const { email } = await signedInEmployee();
    const wrong = await signIn({ email, password: "not the password" });
    const unknown = await signIn({ email: "nobody@example.com", password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error_code).toBe("err_unauthenticated");
    expect(unknown.body.message).toBe(wrong.body.message);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("422 when e-mail or password is missing", async () => {
    const response = await signIn({ email: "" });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {}).sort()).toEqual(["email", "password"]);
  });

  it("429 with Retry-After after repeated failures for one account from one IP, even with the right password then; another IP still signs in", async () => {
    const { email } = await signedInEmployee();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn({ email, password: `wrong ${attempt}` }, "198.51.100.10")).status).toBe(401);
    }
    const blocked = await signIn({ email, password: PASSWORD }, "198.51.100.10");
    expectError(blocked, 429, "err_rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // A stranger's failures elsewhere do not lock the employee out (the per-account limit is far higher).
    expect((await signIn({ email, password: PASSWORD }, "198.51.100.99")).status).toBe(200);
  });

  it("429 after repeated failures from one IP across accounts; other IPs unaffected", async () => {
    const { email } = await signedInEmployee();
    for (let attempt = 0; attempt < 20; attempt++) {
      await signIn({ email: `guess${attempt}@example.com`, password: "x" }, "203.0.113.50");
    }
    expect((await signIn({ email, password: PASSWORD }, "203.0.113.50")).status).toBe(429);
    expect((await signIn({ email, password: PASSWORD }, "203.0.113.51")).status).toBe(200);
  });

  describe("with two-factor authentication on", () => {
    it("400 err_otp_required without a code, err_otp_invalid with a wrong one, 200 with a current one", async () => {
      const { email, authenticator } = await signedInEmployee({ totp: true });
      const missing = await signIn({ email, password: PASSWORD });
      expectError(missing, 400, "err_otp_required");
      expect(missing.headers.get("set-cookie")).toBeNull();
      const wrong = await signIn({ email, password: PASSWORD, totpCode: authenticator!.wrongCode() });
      expectError(wrong, 400, "err_otp_invalid");
      const code = authenticator!.nextCode();
      expect((await signIn({ email, password: PASSWORD, totpCode: code })).status).toBe(200);
      // The same code again is a replay.
      const replay = await signIn({ email, password: PASSWORD, totpCode: code });
      expectError(replay, 400, "err_otp_invalid");
    });

    it("a recovery code signs in once", async () => {
      const { email, recoveryCodes } = await signedInEmployee({ totp: true });
      const code = recoveryCodes[3]!.toUpperCase();
      expect((await signIn({ email, password: PASSWORD, totpCode: code })).status).toBe(200);
      const again = await signIn({ email, password: PASSWORD, totpCode: code });
      expectError(again, 400, "err_otp_invalid");
    });

    it("429 after repeated wrong codes", async () => {
      const { email, authenticator } = await signedInEmployee({ totp: true });
      for (const totpCode of authenticator!.wrongCodes(5)) {
        expect((await signIn({ email, password: PASSWORD, totpCode })).status).toBe(400);
      }
      const blocked = await signIn({ email, password: PASSWORD, totpCode: authenticator!.nextCode() });
      expect(blocked.status).toBe(429);
    });
  });
});

describe("GET /v1/sessions and DELETE /v1/sessions/{id}", () => {
  const another = async (employeeId: string, ip: string | null = "203.0.113.9") =>
    /=([^;]*)/.exec((await createSession({ employeeId, ip })).cookie)![1]!;

  it("lists the employee's own live sessions, newest first, marking this one; ended ones are gone", async () => {
    const staff = await signedInEmployee({ ip: "198.51.100.5" });
    const other = await another(staff.employee.id);
    const ended = await another(staff.employee.id);
    const endedId = (await db().session.findUniqueOrThrow({ where: { tokenHash: sha256(ended) } })).id;
    await db().session.update({ where: { id: endedId }, data: { revokedAt: new Date() } });
    const someoneElse = await signedInEmployee({ platform: staff.account });
    const response = await call(GET, { session: staff.session });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(response.body.filter((item) => item.current)).toHaveLength(1);
    expect(response.body.find((item) => item.current)).toMatchObject({
      ip: "198.51.100.5",
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(JSON.stringify(response.body)).not.toContain(endedId);
    expect(JSON.stringify(response.body)).not.toContain(someoneElse.employee.id);
    for (const token of [staff.session, other, ended]) expect(JSON.stringify(response.body)).not.toContain(token);
  });

  it("ends another of one's own sessions: that browser is signed out, this one is not", async () => {
    const staff = await signedInEmployee();
    const other = await another(staff.employee.id);
    const listed = await call(GET, { session: staff.session });
    const target = listed.body.find((item) => !item.current)?.id ?? "no other session listed";
    const response = await call(endSession, { method: "DELETE", session: staff.session, params: { id: target } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: target, current: false });
    expect((await call(whoAmI, { session: other })).status).toBe(401);
    expect((await call(whoAmI, { session: staff.session })).status).toBe(200);
  });

  it("404 for another employee's session, of this platform or another; the session lives on", async () => {
    const staff = await signedInEmployee();
    const colleague = await signedInEmployee({ platform: staff.account });
    const colleagueSessionId = (await db().session.findFirstOrThrow({ where: { employeeId: colleague.employee.id } }))
      .id;
    const response = await call(endSession, {
      method: "DELETE",
      session: staff.session,
      params: { id: colleagueSessionId },
    });
    expect(response.status).toBe(404);
    expect((await call(whoAmI, { session: colleague.session })).status).toBe(200);
  });

  it("403 for API keys: these are an employee's own", async () => {
    const staff = await signedInEmployee();
    const key = await apiKeyFor(staff.account.id);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(403);
  });
});
