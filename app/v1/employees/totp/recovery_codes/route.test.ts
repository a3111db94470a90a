import { describe, expect, it } from "vitest";
import { POST as signIn } from "@/app/v1/sessions/route";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { POST } from "./route";

describe("POST /v1/employees/totp/recovery_codes", () => {
  it("200: ten new codes; the new ones sign in, the old ones no longer do", async () => {
    const staff = await signedInEmployee({ totp: true });
    const response = await call(POST, {
      method: "POST",
      session: staff.session,
      totp: staff.authenticator!.nextCode(),
    });
    expect(response.status).toBe(200);
    expect(response.body.recoveryCodes).toHaveLength(10);
    expect(new Set(response.body.recoveryCodes).size).toBe(10);
    const old = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, totpCode: staff.recoveryCodes[0] },
      ip: "198.51.100.40",
    });
    expectError(old, 400, "err_otp_invalid");
    const fresh = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, totpCode: response.body.recoveryCodes[0] },
      ip: "198.51.100.41",
    });
    expect(fresh.status).toBe(200);
  });

  it("400 without a current code (step-up): the old codes stay; err_otp_required without 2FA at all", async () => {
    const staff = await signedInEmployee({ totp: true });
    const refused = await call(POST, { method: "POST", session: staff.session });
    expectError(refused, 400, "err_otp_required");
    const stillWorks = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, totpCode: staff.recoveryCodes[1] },
      ip: "198.51.100.42",
    });
    expect(stillWorks.status).toBe(200);
    const without = await signedInEmployee();
    const noTwoFactor = await call(POST, { method: "POST", session: without.session, totp: "123456" });
    expect(noTwoFactor.status).toBe(400);
    expect(noTwoFactor.body.message).toMatch(/not set up/);
  });
});
