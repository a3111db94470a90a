import { describe, expect, it } from "vitest";
import { GET as listEmployees, POST as invite } from "@/app/v1/employees/route";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { db } from "@/lib/db";
import { DEFAULT_KEY_PERMISSIONS, ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { platformWithKey } from "@/lib/testing/factories";
import { call, sessionFrom } from "@/lib/testing/http";
import { POST } from "./route";

const NEW_PASSWORD = "a brand new long password";
const INVALID = "This invitation link is invalid or has expired";
let counter = 0;

const accept = (body: unknown, options: Parameters<typeof call>[1] = {}) =>
  call(POST, { method: "POST", path: "/v1/employees/invitations/accept", body, ...options });

/** An invitation made through the API, as an integrator would: the platform's key and the link's token. */
async function invitation() {
  const platform = await platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
  const email = `invitee${++counter}.${platform.account.id}@example.com`;
  const response = await call(invite, {
    method: "POST",
    apiKey: platform.apiKey,
    body: { name: "Ada Invitee", email },
  });
  expect(response.status).toBe(201);
  const token = new URL(response.body.invitationUrl).searchParams.get("token")!;
  return { ...platform, email, token, employeeId: response.body.id as string };
}

describe("POST /v1/employees/invitations/accept", () => {
  it("200 end to end: invite, accept, signed in with the cookie, listed as active, can sign in again", async () => {
    const { apiKey, account, email, token, employeeId } = await invitation();
    const response = await accept({ token, password: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      employee: {
        id: employeeId,
        name: "Ada Invitee",
        email,
        status: "active",
        role: "viewer",
        twoFactorEnabled: false,
        lastLoginAt: expect.any(String),
        createdAt: expect.any(String),
        deactivatedAt: null,
      },
      account: {
        id: account.id,
        name: account.name,
        parentId: null,
        featureFlags: {},
        createdAt: account.createdAt.toISOString(),
      },
      expiresAt: expect.any(String),
      permissions: [...ROLE_PERMISSIONS.viewer],
      settings: { requireTwoFactor: false, fourEyesApproval: false },
      viaSso: false,
      signIn: "password",
    });
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);

    const me = await call(whoAmI, { session: sessionFrom(response.headers) });
    expect(me.status).toBe(200);
    expect(me.body.employee).toMatchObject({ id: employeeId, status: "active" });

    const listed = await call(listEmployees, { apiKey });
    expect(listed.body.find((item) => item.id === employeeId)).toMatchObject({
      status: "active",
      lastLoginAt: expect.any(String),
    });

    const row = await db().employee.findUniqueOrThrow({ where: { id: employeeId } });
    expect(row.status).toBe("active");
    expect(await db().credentialLink.count({ where: { employeeId } })).toBe(0);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    const again = await call(signIn, { method: "POST", body: { email, password: NEW_PASSWORD }, ip: "198.51.100.60" });
    expect(again.status).toBe(200);

    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.accept_invitation", targetId: employeeId },
    });
    expect(event).toMatchObject({ actorType: "employee", actorId: employeeId, platformId: account.id, status: 200 });
    expect(JSON.stringify(event)).not.toContain(token);
  });

  it("404 for an unknown token, with one message for every kind of bad link", async () => {
    for (const token of ["x".repeat(43), "nope", "x".repeat(200)]) {
      const response = await accept({ token, password: NEW_PASSWORD });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        error_code: "err_not_found",
        message: INVALID,
        http_code: 404,
        request_id: response.headers.get("x-request-id"),
      });
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("404 for a token already used; the password set with it stays", async () => {
    const { token, employeeId } = await invitation();
    expect((await accept({ token, password: NEW_PASSWORD })).status).toBe(200);
    const hash = (await db().employee.findUniqueOrThrow({ where: { id: employeeId } })).passwordHash;
    const reuse = await accept({ token, password: "an attacker's chosen password" });
    expect(reuse.status).toBe(404);
    expect(reuse.body.message).toBe(INVALID);
    expect((await db().employee.findUniqueOrThrow({ where: { id: employeeId } })).passwordHash).toBe(hash);
  });

  it("404 for an expired token; the employee stays invited", async () => {
    const { token, employeeId } = await invitation();
    await db().credentialLink.update({
      where: { employeeId_purpose: { employeeId, purpose: "invitation" } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const response = await accept({ token, password: NEW_PASSWORD });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(INVALID);
    expect(await db().employee.findUniqueOrThrow({ where: { id: employeeId } })).toMatchObject({
      status: "invited",
      passwordHash: null,
    });
  });

  it("of two concurrent accepts of one link, exactly one signs in", async () => {
    const { token } = await invitation();
    const results = await Promise.all([
      accept({ token, password: NEW_PASSWORD }),
      accept({ token, password: NEW_PASSWORD }),
    ]);
    expect(results.map((response) => response.status).sort()).toEqual([200, 404]);
  });

  it("422 naming a too-short password or a missing token; the link stays usable", async () => {
    const { token } = await invitation();
    const short = await accept({ token, password: "short" });
    expect(short.status).toBe(422);
    expect(Object.keys(short.body.details ?? {})).toEqual(["password"]);
    const missing = await accept({ password: NEW_PASSWORD });
    expect(Object.keys(missing.body.details ?? {})).toEqual(["token"]);
    expect((await accept({ token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("422 for a common password, naming why; the link stays usable", async () => {
    const { token } = await invitation();
    const common = await accept({ token, password: "password1234" });
    expect(common.status).toBe(422);
    expect(common.body.details).toEqual({ password: "is one of the 100,000 most common passwords; choose another" });
    expect((await accept({ token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("403 for a cross-site browser request; the link stays usable", async () => {
    const { token } = await invitation();
    const response = await accept({ token, password: NEW_PASSWORD }, { headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect((await accept({ token, password: NEW_PASSWORD })).status).toBe(200);
  });
});
