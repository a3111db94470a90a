import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, call, expectError } from "@/lib/testing/http";
import { POST as confirm } from "./confirm/route";
import { POST as start } from "./route";

describe("POST /v1/employees/totp", () => {
  it("200: a 160-bit secret and its otpauth URI; stored only encrypted, 2FA still off", async () => {
    const { session, employee } = await signedInEmployee();
    const response = await call(start, { method: "POST", session });
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

  it("409 once 2FA is on (re-enrolling would let a stolen session replace it)", async () => {
    const { session } = await signedInEmployee({ totp: true });
    const response = await call(start, { method: "POST", session });
    expectError(response, 409, "err_conflict");
  });

  it("403 with an API key; 403 cross-site", async () => {
    const { account, session } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect((await call(start, { method: "POST", apiKey: key.secret })).status).toBe(403);
    expect((await call(start, { method: "POST", session, headers: { origin: "https://evil.example" } })).status).toBe(403);
  });
});

describe("POST /v1/employees/totp/confirm", () => {
  it("200 with the current code: 2FA on, ten recovery codes stored only as hashes", async () => {
    const { session, employee } = await signedInEmployee();
    const { body } = await call(start, { method: "POST", session });
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
    const { body } = await call(start, { method: "POST", session });
    const response = await call(confirm, { method: "POST", session, body: { code: new Authenticator(body.secret).wrongCode() } });
    expectError(response, 400, "err_otp_invalid");
    expect((await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpEnabledAt).toBeNull();
  });

  it("422 for a code that is not six digits", async () => {
    const { session } = await signedInEmployee();
    await call(start, { method: "POST", session });
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
    const { body } = await call(start, { method: "POST", session });
    const authenticator = new Authenticator(body.secret);
    for (const code of authenticator.wrongCodes(5)) {
      expect((await call(confirm, { method: "POST", session, body: { code } })).status).toBe(400);
    }
    const blocked = await call(confirm, { method: "POST", session, body: { code: authenticator.nextCode() } });
    expectError(blocked, 429, "err_rate_limited");
  });
});
