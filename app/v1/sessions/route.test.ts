import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, sessionFrom } from "@/lib/testing/http";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { GET as whoAmI } from "./current/route";
import { POST } from "./route";

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
    expect(Object.keys(response.body.details).sort()).toEqual(["email", "password"]);
  });

  it("429 after repeated failures for one account, even with the right password then", async () => {
    const { email } = await signedInEmployee();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn({ email, password: `wrong ${attempt}` }, `198.51.100.${10 + attempt}`)).status).toBe(401);
    }
    const blocked = await signIn({ email, password: PASSWORD }, "198.51.100.99");
    expect(blocked.status).toBe(429);
    expect(blocked.body.error_code).toBe("err_rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
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
      expect(missing.status).toBe(400);
      expect(missing.body.error_code).toBe("err_otp_required");
      expect(missing.headers.get("set-cookie")).toBeNull();
      const wrong = await signIn({ email, password: PASSWORD, totpCode: authenticator!.wrongCode() });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error_code).toBe("err_otp_invalid");
      const code = authenticator!.nextCode();
      expect((await signIn({ email, password: PASSWORD, totpCode: code })).status).toBe(200);
      // The same code again is a replay.
      const replay = await signIn({ email, password: PASSWORD, totpCode: code });
      expect(replay.status).toBe(400);
      expect(replay.body.error_code).toBe("err_otp_invalid");
    });

    it("a recovery code signs in once", async () => {
      const { email, recoveryCodes } = await signedInEmployee({ totp: true });
      const code = recoveryCodes[3]!.toUpperCase();
      expect((await signIn({ email, password: PASSWORD, totpCode: code })).status).toBe(200);
      const again = await signIn({ email, password: PASSWORD, totpCode: code });
      expect(again.status).toBe(400);
      expect(again.body.error_code).toBe("err_otp_invalid");
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
