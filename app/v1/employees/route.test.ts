import { describe, expect, it } from "vitest";
import { POST as signIn } from "@/app/v1/sessions/route";
import { POST as createSandboxAccount } from "@/app/v1/sandbox/accounts/route";
import { hashPassword } from "@/lib/auth/passwords";
import { sha256 } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { apiKeyFor, PASSWORD, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, ORIGIN } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { GET, POST } from "./route";

const invite = (options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", path: "/v1/employees", ...options });
const DAY = 86_400_000;
let counter = 0;
const uniqueEmail = (name = "invitee") => `${name}${++counter}.${Date.now()}@example.com`;
/** Inviting by key needs a key that was given `employees:write` by name. */
const keyThatInvites = () => platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });

describe("GET /v1/employees", () => {
  it("200: a plain array of the platform's employees, oldest first, without any secret", async () => {
    const { session, employee, authenticator } = await signedInEmployee({ totp: true });
    const { body: invited } = await invite({
      session,
      totp: authenticator!.nextCode(),
      body: { name: "Grace", email: uniqueEmail() },
    });
    await db().employee.update({
      where: { id: employee.id },
      data: { lastLoginAt: new Date(), createdAt: new Date(Date.now() - 60_000) },
    });
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body.map((item) => item.id)).toEqual([employee.id, invited.id]);
    expect(response.body[0]).toEqual({
      id: employee.id,
      name: employee.name,
      email: employee.email,
      status: "active",
      role: "owner",
      twoFactorEnabled: true,
      lastLoginAt: expect.any(String),
      createdAt: expect.any(String),
      deactivatedAt: null,
    });
    expect(response.body[1]).toMatchObject({
      status: "invited",
      role: "viewer",
      twoFactorEnabled: false,
      lastLoginAt: null,
    });
    expect(response.body[1]).not.toHaveProperty("invitationUrl");
    const text = JSON.stringify(response.body);
    for (const field of ["passwordHash", "totpSecret", "invitationTokenHash", "accountId"])
      expect(text).not.toContain(field);
  });

  it("200 by API key, and with Service-Account-Id of a sub-account: employees belong to the platform", async () => {
    const { account, employee } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    const byKey = await call(GET, { apiKey: key.secret });
    expect(byKey.body.map((item) => item.id)).toEqual([employee.id]);
    const { body: sub } = await call(createSandboxAccount, {
      method: "POST",
      apiKey: key.secret,
      body: { name: "Sub" },
    });
    const forSub = await call(GET, { apiKey: key.secret, headers: { "service-account-id": sub.id } });
    expect(forSub.body.map((item) => item.id)).toEqual([employee.id]);
  });

  it("never lists another platform's employees", async () => {
    const mine = await signedInEmployee();
    const theirs = await signedInEmployee();
    const response = await call(GET, { session: mine.session });
    expect(response.body.map((item) => item.id)).toEqual([mine.employee.id]);
    expect(JSON.stringify(response.body)).not.toContain(theirs.employee.id);
  });
});

describe("POST /v1/employees", () => {
  unsetEnvAfterEach("APP_ORIGIN");

  it("201: the invited employee with a 7-day link; only the token's hash is stored", async () => {
    const { session, account, authenticator } = await signedInEmployee({ totp: true });
    const email = uniqueEmail("Grace.Hopper");
    const response = await invite({
      session,
      totp: authenticator!.nextCode(),
      body: { name: "  Grace Hopper ", email: `  ${email.toUpperCase()} `, role: "compliance" },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^emp_[a-z0-9]{20}$/),
      name: "Grace Hopper",
      email: email.toLowerCase(),
      status: "invited",
      role: "compliance",
      twoFactorEnabled: false,
      lastLoginAt: null,
      createdAt: expect.any(String),
      deactivatedAt: null,
      invitationUrl: expect.stringMatching(new RegExp(`^${ORIGIN}/invitations/accept\\?token=[A-Za-z0-9_-]{43}$`)),
      invitationExpiresAt: expect.any(String),
    });
    expect(Math.abs(new Date(response.body.invitationExpiresAt).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(
      60_000,
    );
    const token = new URL(response.body.invitationUrl).searchParams.get("token")!;
    const row = await db().employee.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row).toMatchObject({ accountId: account.id, status: "invited", passwordHash: null });
    const link = await db().credentialLink.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(link).toMatchObject({ employeeId: row.id, purpose: "invitation", securityStamp: row.securityStamp });
    expect(JSON.stringify([row, link])).not.toContain(token);
    const event = await db().auditEvent.findFirstOrThrow({ where: { action: "employee.invite", targetId: row.id } });
    expect(event.status).toBe(201);
    expect(event.details).toEqual({
      email: email.toLowerCase(),
      role: "compliance",
      after: {
        email: email.toLowerCase(),
        role: "compliance",
        status: "invited",
        invitationExpiresAt: response.body.invitationExpiresAt,
      },
    });
    expect(JSON.stringify(event)).not.toContain(token);
  });

  it("201 by API key; each invitation gets its own token", async () => {
    const { apiKey } = await keyThatInvites();
    const first = await invite({ apiKey, body: { name: "A", email: uniqueEmail() } });
    const second = await invite({ apiKey, body: { name: "B", email: uniqueEmail() } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.invitationUrl).not.toBe(second.body.invitationUrl);
  });

  // Regression: the link used request.url, which behind server.mjs is always localhost:3000.
  it("the link uses the address the inviter reached the service at", async () => {
    const { apiKey } = await keyThatInvites();
    const response = await invite({
      apiKey,
      body: { name: "H", email: uniqueEmail() },
      headers: { host: "compliance.internal:8443" },
    });
    expect(response.body.invitationUrl).toMatch(/^http:\/\/compliance\.internal:8443\/invitations\/accept\?token=/);
  });

  it("the link uses APP_ORIGIN when it is configured", async () => {
    process.env.APP_ORIGIN = "https://compliance.example.com";
    resetEnv();
    const { apiKey } = await keyThatInvites();
    const response = await invite({ apiKey, body: { name: "C", email: uniqueEmail() } });
    expect(response.body.invitationUrl).toMatch(/^https:\/\/compliance\.example\.com\/invitations\/accept\?token=/);
  });

  it("409 for an e-mail address already in use, in any case, in this or another platform", async () => {
    const mine = await signedInEmployee({ totp: true });
    const theirs = await signedInEmployee();
    const { apiKey } = await keyThatInvites();
    const email = uniqueEmail();
    expect((await invite({ apiKey, body: { name: "First", email } })).status).toBe(201);
    for (const taken of [email.toUpperCase(), mine.email, theirs.email]) {
      const response = await invite({
        session: mine.session,
        totp: mine.authenticator!.nextCode(),
        body: { name: "Again", email: taken },
      });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ error_code: "err_conflict", details: { email: "is already in use" } });
    }
  });

  it("of concurrent invitations of one address, one succeeds and the rest answer 409", async () => {
    const { apiKey } = await keyThatInvites();
    const email = uniqueEmail();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => invite({ apiKey, body: { name: "Race", email } })),
    );
    expect(results.map((response) => response.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("422 naming name and email when missing or malformed", async () => {
    const { apiKey } = await keyThatInvites();
    const missing = await invite({ apiKey, body: {} });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.details ?? {}).sort()).toEqual(["email", "name"]);
    const malformed = await invite({ apiKey, body: { name: "   ", email: "not-an-email" } });
    expect(Object.keys(malformed.body.details ?? {}).sort()).toEqual(["email", "name"]);
    expect(malformed.body.details?.email).toBe("must be an e-mail address");
  });

  it("403 for a cross-site request with a session cookie", async () => {
    const { session } = await signedInEmployee();
    const response = await invite({
      session,
      body: { name: "X", email: uniqueEmail() },
      headers: { origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
  });

  it("from a session: 400 without a current code (step-up), then 201 with one", async () => {
    const { session, authenticator } = await signedInEmployee({ totp: true });
    const body = { name: "Step", email: uniqueEmail() };
    const without = await invite({ session, body });
    expectError(without, 400, "err_otp_required");
    expect(await db().employee.count({ where: { email: body.email } })).toBe(0);
    expect((await invite({ session, totp: authenticator!.nextCode(), body })).status).toBe(201);
  });

  it("a key never invites with a role (it cannot hold `roles`); an admin never invites an owner", async () => {
    const { apiKey } = await keyThatInvites();
    const asAdmin = await invite({ apiKey, body: { name: "Admin", email: uniqueEmail(), role: "admin" } });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body.details).toEqual({ permission: "roles" });
    const admin = await signedInEmployee({ totp: true, role: "admin" });
    const owner = await invite({
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      body: { name: "Owner", email: uniqueEmail(), role: "owner" },
    });
    expect(owner.status).toBe(403);
    expect(owner.body.details).toEqual({ permission: "owners" });
    const developer = await invite({
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      body: { name: "Dev", email: uniqueEmail(), role: "developer" },
    });
    expect(developer.status).toBe(201);
    expect(developer.body.role).toBe("developer");
  });

  it("an invited employee cannot sign in, even with a password hash set", async () => {
    const { apiKey } = await keyThatInvites();
    const email = uniqueEmail();
    const { body: invited } = await invite({ apiKey, body: { name: "Pending", email } });
    const noPassword = await call(signIn, { method: "POST", body: { email, password: PASSWORD }, ip: "198.51.100.80" });
    expect(noPassword.status).toBe(401);
    await db().employee.update({ where: { id: invited.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
    const withPassword = await call(signIn, {
      method: "POST",
      body: { email, password: PASSWORD },
      ip: "198.51.100.81",
    });
    expectError(withPassword, 401, "err_unauthenticated");
    expect(withPassword.headers.get("set-cookie")).toBeNull();
  });
});
