import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { lastAuditEvent } from "@/lib/testing/audit";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, sessionFrom } from "@/lib/testing/http";
import { SoftwarePasskey } from "@/lib/testing/software-passkey";
import { oneTimeCodeRule } from "@/lib/auth/throttle";
import { resetEnv } from "@/lib/env";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { POST as signIn } from "@/app/v1/sessions/route";
import { GET as currentSession } from "@/app/v1/sessions/current/route";
import { POST as signInOptions } from "@/app/v1/sessions/passkey/options/route";
import { POST as stepUpOptions } from "@/app/v1/step_up/passkey/options/route";
import { DELETE as deactivate } from "@/app/v1/employees/[id]/route";
import { DELETE as resetTwoFactor } from "@/app/v1/employees/[id]/totp/route";
import { DELETE as remove } from "./[id]/route";
import { POST as registrationOptions } from "./options/route";
import { GET as list, POST as register } from "./route";

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;

async function challengeFor(staff: Staff) {
  const options = await call(registrationOptions, { method: "POST", session: staff.session });
  expect(options.status).toBe(200);
  return options.body.challenge;
}

async function challengeAt(staff: Staff, headers: Record<string, string>) {
  const options = await call(registrationOptions, { method: "POST", session: staff.session, headers });
  expect(options.status).toBe(200);
  return options.body.challenge;
}

/** An employee with 2FA and one passkey registered through the API. */
async function withPasskey(name = "Laptop") {
  const staff = await signedInEmployee({ totp: true });
  const passkey = new SoftwarePasskey();
  const created = await call(register, {
    method: "POST",
    session: staff.session,
    totp: staff.authenticator!.nextCode(),
    body: { name, response: passkey.attestation({ challenge: await challengeFor(staff) }) },
  });
  expect(created.status).toBe(201);
  return { ...staff, passkey, passkeyId: created.body.id };
}

async function signInChallenge(email: string) {
  const options = await call(signInOptions, { method: "POST", body: { email } });
  expect(options.status).toBe(200);
  expect(options.body.userVerification).toBe("required");
  return options.body.challenge;
}

async function stepUpChallenge(session: string) {
  const options = await call(stepUpOptions, { method: "POST", session });
  expect(options.status).toBe(200);
  expect(options.body.userVerification).toBe("required");
  return options.body.challenge;
}

describe("POST /v1/employees/passkeys/options", () => {
  it("200: a discoverable credential for this origin, user verification required, no attestation", async () => {
    const staff = await signedInEmployee({ totp: true });
    const options = await call(registrationOptions, { method: "POST", session: staff.session });
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe("localhost");
    expect(options.body.user.name).toBe(staff.email);
    expect(options.body.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(options.body.attestation).toBe("none");
    const row = await db().webAuthnChallenge.findUniqueOrThrow({ where: { challenge: options.body.challenge } });
    expect(row.employeeId).toBe(staff.employee.id);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(5 * 60_000 + 1000);
  });
});

describe("POST /v1/employees/passkeys", () => {
  it("201: { id pk_, name, createdAt, lastUsedAt: null }, listed; key and counter stored", async () => {
    const staff = await withPasskey("YubiKey");
    const listed = await call(list, { session: staff.session });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: staff.passkeyId, name: "YubiKey", createdAt: expect.any(String), lastUsedAt: null },
    ]);
    expect(staff.passkeyId).toMatch(/^pk_[a-z0-9]+$/);
    const row = await db().passkey.findUniqueOrThrow({ where: { id: staff.passkeyId } });
    expect(row.credentialId).toBe(staff.passkey.credentialId);
    expect(row.counter).toBe(0n);
  });

  it("400 err_otp_required without a step-up; nothing stored", async () => {
    const staff = await signedInEmployee({ totp: true });
    const response = new SoftwarePasskey().attestation({ challenge: await challengeFor(staff) });
    expectError(
      await call(register, { method: "POST", session: staff.session, body: { name: "x", response } }),
      400,
      "err_otp_required",
    );
    expect(await db().passkey.count({ where: { employeeId: staff.employee.id } })).toBe(0);
  });

  it("422 without user verification, and the challenge is spent: the same one cannot be answered again", async () => {
    const staff = await signedInEmployee({ totp: true });
    const passkey = new SoftwarePasskey();
    const challenge = await challengeFor(staff);
    const refused = await call(register, {
      method: "POST",
      session: staff.session,
      totp: staff.authenticator!.nextCode(),
      body: { name: "x", response: passkey.attestation({ challenge, userVerified: false }) },
    });
    expectError(refused, 422, "err_validation");
    expect(refused.body.details).toHaveProperty("response");
    const again = await call(register, {
      method: "POST",
      session: staff.session,
      totp: staff.authenticator!.nextCode(),
      body: { name: "x", response: passkey.attestation({ challenge }) },
    });
    expectError(again, 422, "err_validation");
    expect(await db().passkey.count({ where: { employeeId: staff.employee.id } })).toBe(0);
  });

  describe("with APP_ORIGIN", () => {
    unsetEnvAfterEach("APP_ORIGIN");

    it("the RP ID and origin are APP_ORIGIN's, not the Host the request named", async () => {
      process.env.APP_ORIGIN = "https://compliance.example.com";
      resetEnv();
      const staff = await signedInEmployee({ totp: true });
      const headers = { origin: "https://compliance.example.com" };
      const options = await call(registrationOptions, { method: "POST", session: staff.session, headers });
      expect(options.status).toBe(200);
      expect(options.body.rp.id).toBe("compliance.example.com");
      const registerFor = async (passkey: SoftwarePasskey) =>
        call(register, {
          method: "POST",
          session: staff.session,
          headers,
          totp: staff.authenticator!.nextCode(),
          body: { name: "x", response: passkey.attestation({ challenge: await challengeAt(staff, headers) }) },
        });
      expectError(await registerFor(new SoftwarePasskey()), 422, "err_validation");
      expect((await registerFor(new SoftwarePasskey("https://compliance.example.com"))).status).toBe(201);
    });
  });

  it("422 for an answer made for another origin", async () => {
    const staff = await signedInEmployee({ totp: true });
    const response = new SoftwarePasskey("https://evil.example").attestation({ challenge: await challengeFor(staff) });
    const refused = await call(register, {
      method: "POST",
      session: staff.session,
      totp: staff.authenticator!.nextCode(),
      body: { name: "x", response },
    });
    expectError(refused, 422, "err_validation");
  });
});

describe("POST /v1/sessions with a passkey", () => {
  it("200: password and passkey sign in; lastUsedAt set; deactivation ends that session at once", async () => {
    const staff = await withPasskey();
    const assertion = staff.passkey.assertion({ challenge: await signInChallenge(staff.email) });
    const signedIn = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, passkey: assertion },
    });
    expect(signedIn.status).toBe(200);
    const session = sessionFrom(signedIn.headers);
    expect((await call(currentSession, { session })).status).toBe(200);
    const row = await db().passkey.findUniqueOrThrow({ where: { id: staff.passkeyId } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.counter).toBe(1n);

    const admin = await signedInEmployee({ totp: true, platform: { id: staff.account.id } });
    const deactivated = await call(deactivate, {
      method: "DELETE",
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      params: { id: staff.employee.id },
    });
    expect(deactivated.status).toBe(200);
    expectError(await call(currentSession, { session }), 401, "err_unauthenticated");
  });

  it("401: a valid passkey never stands in for the password (and is not even checked)", async () => {
    const staff = await withPasskey();
    const challenge = await signInChallenge(staff.email);
    const assertion = staff.passkey.assertion({ challenge });
    const refused = await call(signIn, {
      method: "POST",
      ip: "203.0.113.71",
      body: { email: staff.email, password: `${PASSWORD}!`, passkey: assertion },
    });
    expectError(refused, 401, "err_unauthenticated");
    expect((await db().webAuthnChallenge.findUniqueOrThrow({ where: { challenge } })).usedAt).toBeNull();
  });

  it("401: a replayed assertion is refused", async () => {
    const staff = await withPasskey();
    const assertion = staff.passkey.assertion({ challenge: await signInChallenge(staff.email) });
    const body = { email: staff.email, password: PASSWORD, passkey: assertion };
    expect((await call(signIn, { method: "POST", body })).status).toBe(200);
    expectError(await call(signIn, { method: "POST", body }), 401, "err_unauthenticated");
  });

  it("401: a replayed assertion of an authenticator without a counter (always 0) is refused by its spent challenge", async () => {
    const staff = await withPasskey();
    const assertion = staff.passkey.assertion({ challenge: await signInChallenge(staff.email), counter: 0 });
    const body = { email: staff.email, password: PASSWORD, passkey: assertion };
    expect((await call(signIn, { method: "POST", body })).status).toBe(200);
    expectError(await call(signIn, { method: "POST", body }), 401, "err_unauthenticated");
  });

  it("401: an assertion without user verification is refused", async () => {
    const staff = await withPasskey();
    const assertion = staff.passkey.assertion({ challenge: await signInChallenge(staff.email), userVerified: false });
    const refused = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, passkey: assertion },
    });
    expectError(refused, 401, "err_unauthenticated");
    expect((await db().passkey.findUniqueOrThrow({ where: { id: staff.passkeyId } })).lastUsedAt).toBeNull();
  });

  it("401: a challenge asked for another e-mail is refused", async () => {
    const staff = await withPasskey();
    const assertion = staff.passkey.assertion({ challenge: await signInChallenge("someone.else@example.com") });
    const refused = await call(signIn, {
      method: "POST",
      body: { email: staff.email, password: PASSWORD, passkey: assertion },
    });
    expectError(refused, 401, "err_unauthenticated");
  });

  it("the options answer is the same for a known and an unknown e-mail: no credential named", async () => {
    const staff = await withPasskey();
    for (const email of [staff.email, "nobody@example.com"]) {
      const options = await call(signInOptions, { method: "POST", body: { email } });
      expect(options.status).toBe(200);
      expect(options.body.allowCredentials ?? []).toEqual([]);
    }
  });
});

describe("POST /v1/sessions/passkey/options", () => {
  it("429 past 60 challenges from one client in 15 minutes; nothing stored then; another client is not held back", async () => {
    const ask = (ip: string) => call(signInOptions, { method: "POST", ip, body: { email: "someone@example.com" } });
    for (let index = 0; index < 60; index++) expect((await ask("198.51.100.60")).status).toBe(200);
    const stored = await db().webAuthnChallenge.count();
    const refused = await ask("198.51.100.60");
    expectError(refused, 429, "err_rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await db().webAuthnChallenge.count()).toBe(stored);
    expect((await ask("198.51.100.61")).status).toBe(200);
  });
});

describe("Service-Passkey-Assertion (step-up)", () => {
  it("200: removes a passkey with a passkey step-up; the list is empty afterwards", async () => {
    const staff = await withPasskey();
    const header = SoftwarePasskey.header(staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session) }));
    const removed = await call(remove, {
      method: "DELETE",
      session: staff.session,
      params: { id: staff.passkeyId },
      headers: { "service-passkey-assertion": header },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: staff.passkeyId, name: "Laptop" });
    expect((await call(list, { session: staff.session })).body).toEqual([]);
  });

  it("400 err_otp_required with neither a code nor an assertion; 400 err_otp_invalid for garbage", async () => {
    const staff = await withPasskey();
    const base = { method: "DELETE", session: staff.session, params: { id: staff.passkeyId } };
    expectError(await call(remove, base), 400, "err_otp_required");
    for (const header of ["not base64!", Buffer.from("{}").toString("base64url"), "e30"]) {
      expectError(
        await call(remove, { ...base, headers: { "service-passkey-assertion": header } }),
        400,
        "err_otp_invalid",
      );
    }
    expect(await db().passkey.count({ where: { id: staff.passkeyId } })).toBe(1);
  });

  it("400 err_otp_invalid for a lowered counter, audited as a possible clone; the stored counter stays", async () => {
    const staff = await withPasskey();
    for (let i = 0; i < 2; i++) {
      const header = SoftwarePasskey.header(
        staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session) }),
      );
      expect((await call(list, { session: staff.session })).status).toBe(200);
      const options = await call(registrationOptions, { method: "POST", session: staff.session });
      const second = new SoftwarePasskey().attestation({ challenge: options.body.challenge });
      const created = await call(register, {
        method: "POST",
        session: staff.session,
        headers: { "service-passkey-assertion": header },
        body: { name: `Second ${i}`, response: second },
      });
      expect(created.status).toBe(201);
    }
    expect((await db().passkey.findUniqueOrThrow({ where: { id: staff.passkeyId } })).counter).toBe(2n);
    const lowered = staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session), counter: 1 });
    const refused = await call(remove, {
      method: "DELETE",
      session: staff.session,
      params: { id: staff.passkeyId },
      headers: { "service-passkey-assertion": SoftwarePasskey.header(lowered) },
    });
    expectError(refused, 400, "err_otp_invalid");
    const event = await lastAuditEvent({ action: "employee.passkey_counter_regressed", targetId: staff.passkeyId });
    expect(event.actorId).toBe(staff.employee.id);
    expect(event.details).toEqual({ storedCounter: 2, receivedCounter: 1 });
    expect((await db().passkey.findUniqueOrThrow({ where: { id: staff.passkeyId } })).counter).toBe(2n);
  });

  it("400 for a replayed step-up assertion and for one without user verification", async () => {
    const staff = await withPasskey();
    const header = SoftwarePasskey.header(staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session) }));
    const second = new SoftwarePasskey();
    const registerWith = async (stepUp: string) =>
      call(register, {
        method: "POST",
        session: staff.session,
        headers: { "service-passkey-assertion": stepUp },
        body: { name: "Phone", response: second.attestation({ challenge: await challengeFor(staff) }) },
      });
    expect((await registerWith(header)).status).toBe(201);
    expectError(await registerWith(header), 400, "err_otp_invalid");
    const noUv = staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session), userVerified: false });
    expectError(await registerWith(SoftwarePasskey.header(noUv)), 400, "err_otp_invalid");
  });

  it("refused passkeys count toward the one-time-code throttle shared with wrong codes: then 429", async () => {
    const staff = await withPasskey();
    const base = { method: "DELETE", session: staff.session, params: { id: staff.passkeyId } };
    for (let i = 0; i < oneTimeCodeRule.limit; i++) {
      const noUv = staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session), userVerified: false });
      const header = SoftwarePasskey.header(noUv);
      expectError(
        await call(remove, { ...base, headers: { "service-passkey-assertion": header } }),
        400,
        "err_otp_invalid",
      );
    }
    const good = staff.passkey.assertion({ challenge: await stepUpChallenge(staff.session) });
    const header = SoftwarePasskey.header(good);
    expectError(
      await call(remove, { ...base, headers: { "service-passkey-assertion": header } }),
      429,
      "err_rate_limited",
    );
    expectError(await call(remove, { ...base, totp: staff.authenticator!.nextCode() }), 429, "err_rate_limited");
  });

  it("404 for another employee's passkey", async () => {
    const owner = await withPasskey();
    const other = await signedInEmployee({ totp: true, platform: { id: owner.account.id } });
    const response = await call(remove, {
      method: "DELETE",
      session: other.session,
      params: { id: owner.passkeyId },
      totp: other.authenticator!.nextCode(),
    });
    expectError(response, 404, "err_not_found");
    expect(await db().passkey.count({ where: { id: owner.passkeyId } })).toBe(1);
  });
});

describe("DELETE /v1/employees/{id}/totp (an admin's 2FA reset)", () => {
  it("removes the employee's passkeys with the rest of their second factors", async () => {
    const staff = await withPasskey();
    const admin = await signedInEmployee({ totp: true, platform: { id: staff.account.id } });
    const reset = await call(resetTwoFactor, {
      method: "DELETE",
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      params: { id: staff.employee.id },
    });
    expect(reset.status).toBe(200);
    expect(await db().passkey.count({ where: { employeeId: staff.employee.id } })).toBe(0);
  });
});
