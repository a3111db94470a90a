import { describe, expect, it } from "vitest";
import { POST as invite } from "@/app/v1/employees/route";
import { POST as accept } from "@/app/v1/employees/invitations/accept/route";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { DEFAULT_KEY_PERMISSIONS, KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, PASSWORD, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { DELETE, GET, POST } from "./route";

const get = (id: string, options: Parameters<typeof call>[1] = {}) => call(GET, { params: { id }, ...options });

describe("GET /v1/employees/{id}", () => {
  it("200: the employee, without any secret", async () => {
    const { session, employee } = await signedInEmployee({ totp: true });
    const response = await get(employee.id, { session });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: employee.id,
      name: employee.name,
      email: employee.email,
      status: "active",
      twoFactorEnabled: true,
      lastLoginAt: null,
      createdAt: employee.createdAt.toISOString(),
      role: "owner",
      deactivatedAt: null,
    });
  });

  it("200 by API key for an invited employee, without the invitation link", async () => {
    const { apiKey } = await platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
    const { body: invited } = await call(invite, {
      method: "POST",
      apiKey,
      body: { name: "New", email: `new.${Date.now()}@example.com` },
    });
    const response = await get(invited.id, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: invited.id, status: "invited", twoFactorEnabled: false });
    expect(response.body).not.toHaveProperty("invitationUrl");
  });

  it("404 for another platform's employee, an unknown or a malformed id", async () => {
    const mine = await signedInEmployee();
    const theirs = await signedInEmployee();
    const key = await apiKeyFor(mine.account.id);
    for (const id of [theirs.employee.id, "emp_doesnotexist", "acct_x", "emp_"]) {
      for (const credential of [{ session: mine.session }, { apiKey: key.secret }]) {
        const response = await get(id, credential);
        expectError(response, 404, "err_not_found");
      }
    }
  });
});

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
const changeRole = (by: Staff, id: string, role: string) =>
  call(POST, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
    body: { role },
  });
const deactivate = (by: Staff, id: string) =>
  call(DELETE, { method: "DELETE", session: by.session, totp: by.authenticator!.nextCode(), params: { id } });
const roleOf = async (id: string) => (await db().employee.findUniqueOrThrow({ where: { id } })).role;

describe("POST /v1/employees/{id} (role)", () => {
  it("200: an admin makes a viewer a compliance officer; it applies on their very next request", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    expect((await call(whoAmI, { session: viewer.session })).body.permissions).not.toContain(
      "information_requests:write",
    );
    const response = await changeRole(admin, viewer.employee.id, "compliance");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: viewer.employee.id, role: "compliance" });
    expect((await call(whoAmI, { session: viewer.session })).body.permissions).toContain("information_requests:write");
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.change_role", targetId: viewer.employee.id },
    });
    expect(audit).toMatchObject({ actorId: admin.employee.id, status: 200 });
    expect(audit.details).toEqual({ role: "compliance", before: { role: "viewer" }, after: { role: "compliance" } });
  });

  it("400 without a current code (step-up), nothing changed", async () => {
    const owner = await signedInEmployee({ totp: true });
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const response = await call(POST, {
      method: "POST",
      session: owner.session,
      params: { id: viewer.employee.id },
      body: { role: "admin" },
    });
    expectError(response, 400, "err_otp_required");
    expect(await roleOf(viewer.employee.id)).toBe("viewer");
  });

  it("403 naming `owners` when an admin would make or unmake an owner; an owner may", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const promote = await changeRole(admin, viewer.employee.id, "owner");
    expect(promote.status).toBe(403);
    expect(promote.body.details).toEqual({ permission: "owners" });
    const demote = await changeRole(admin, owner.employee.id, "viewer");
    expect(demote.status).toBe(403);
    expect(demote.body.details).toEqual({ permission: "owners" });
    expect(await roleOf(owner.employee.id)).toBe("owner");
    expect((await changeRole(owner, viewer.employee.id, "owner")).status).toBe(200);
    expect(await roleOf(viewer.employee.id)).toBe("owner");
  });

  it("409 for demoting the last active owner, themselves included; fine once there is another", async () => {
    const owner = await signedInEmployee({ totp: true });
    const refused = await changeRole(owner, owner.employee.id, "admin");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/last active owner/);
    expect(await roleOf(owner.employee.id)).toBe("owner");
    const second = await signedInEmployee({ totp: true, role: "owner", platform: owner.account });
    expect((await changeRole(owner, owner.employee.id, "admin")).status).toBe(200);
    expect(await roleOf(second.employee.id)).toBe("owner");
  });

  it("of two owners demoting each other at once, at most one succeeds: an owner is always left", async () => {
    const first = await signedInEmployee({ totp: true });
    const second = await signedInEmployee({ totp: true, role: "owner", platform: first.account });
    const answers = await Promise.all([
      changeRole(first, second.employee.id, "admin"),
      changeRole(second, first.employee.id, "admin"),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await db().employee.count({ where: { accountId: first.account.id, role: "owner" } })).toBe(1);
  });

  it("403 for every API key: no key holds `roles`", async () => {
    const { account } = await signedInEmployee();
    const viewer = await signedInEmployee({ platform: account, role: "viewer" });
    const key = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    const response = await call(POST, {
      method: "POST",
      apiKey: key.secret,
      params: { id: viewer.employee.id },
      body: { role: "admin" },
    });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ permission: "roles" });
  });

  it("422 for an unknown role; 404 for another platform's employee", async () => {
    const owner = await signedInEmployee({ totp: true });
    const theirs = await signedInEmployee();
    const unknown = await changeRole(owner, owner.employee.id, "superuser");
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.details ?? {})).toEqual(["role"]);
    expect((await changeRole(owner, theirs.employee.id, "viewer")).status).toBe(404);
    expect(await roleOf(theirs.employee.id)).toBe("owner");
  });
});

describe("DELETE /v1/employees/{id} (offboarding)", () => {
  it("200: deactivated; their open session is refused on its next request and sign-in answers as for a wrong password", async () => {
    const owner = await signedInEmployee({ totp: true });
    const leaver = await signedInEmployee({ role: "compliance", platform: owner.account });
    expect((await call(whoAmI, { session: leaver.session })).status).toBe(200);
    const response = await deactivate(owner, leaver.employee.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: leaver.employee.id,
      status: "deactivated",
      deactivatedAt: expect.any(String),
    });
    expect((await call(whoAmI, { session: leaver.session })).status).toBe(401);
    const signedIn = await call(signIn, {
      method: "POST",
      body: { email: leaver.email, password: PASSWORD },
      ip: "198.51.100.71",
    });
    const wrong = await call(signIn, {
      method: "POST",
      body: { email: owner.email, password: "not the password" },
      ip: "198.51.100.72",
    });
    expect(signedIn.status).toBe(401);
    // The same answer as for a wrong password, but for the id of the request it answers.
    expect({ ...signedIn.body, request_id: null }).toEqual({ ...wrong.body, request_id: null });
    expect(await db().session.count({ where: { employeeId: leaver.employee.id, revokedAt: null } })).toBe(0);
  });

  it("an invited employee's link stops working", async () => {
    const owner = await signedInEmployee({ totp: true });
    const invited = await call(invite, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { name: "Later", email: `later.${owner.account.id}@example.com` },
    });
    const token = new URL(invited.body.invitationUrl).searchParams.get("token")!;
    expect((await deactivate(owner, invited.body.id)).status).toBe(200);
    const accepted = await call(accept, { method: "POST", body: { token, password: "a long enough password" } });
    expect(accepted.status).toBe(404);
  });

  it("deactivating twice: 200, unchanged", async () => {
    const owner = await signedInEmployee({ totp: true });
    const leaver = await signedInEmployee({ role: "viewer", platform: owner.account });
    const first = await deactivate(owner, leaver.employee.id);
    const second = await deactivate(owner, leaver.employee.id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it("409 for the last active owner (themselves too); 403 naming `owners` for an admin deactivating an owner", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    expect((await deactivate(owner, owner.employee.id)).status).toBe(409);
    const byAdmin = await deactivate(admin, owner.employee.id);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.details).toEqual({ permission: "owners" });
    expect((await db().employee.findUniqueOrThrow({ where: { id: owner.employee.id } })).status).toBe("active");
  });

  it("a key given employees:write may offboard; a default key may not", async () => {
    const owner = await signedInEmployee();
    const leaver = await signedInEmployee({ role: "viewer", platform: owner.account });
    const plain = await apiKeyFor(owner.account.id);
    const refused = await call(DELETE, { method: "DELETE", apiKey: plain.secret, params: { id: leaver.employee.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ permission: "employees:write" });
    const granted = await apiKeyFor(owner.account.id, { permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
    expect(
      (await call(DELETE, { method: "DELETE", apiKey: granted.secret, params: { id: leaver.employee.id } })).status,
    ).toBe(200);
  });

  it("400 without a current code from a session, nothing changed", async () => {
    const owner = await signedInEmployee({ totp: true });
    const leaver = await signedInEmployee({ role: "viewer", platform: owner.account });
    const response = await call(DELETE, {
      method: "DELETE",
      session: owner.session,
      params: { id: leaver.employee.id },
    });
    expect(response.status).toBe(400);
    expect((await db().employee.findUniqueOrThrow({ where: { id: leaver.employee.id } })).status).toBe("active");
  });
});
