import { describe, expect, it } from "vitest";
import { POST as acceptReset } from "@/app/v1/employees/password_reset/accept/route";
import { DELETE as deactivate } from "@/app/v1/employees/[id]/route";
import { POST as invite } from "@/app/v1/employees/route";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { POST as changePassword } from "@/app/v1/employees/me/password/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, ORIGIN } from "@/lib/testing/http";
import { POST } from "./route";

const NEW_PASSWORD = "a fresh and long password";
const INVALID = "This password-reset link is invalid or has expired";

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
const createLink = (by: Staff, id: string) =>
  call(POST, {
    method: "POST",
    path: `/v1/employees/${id}/password_reset`,
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
  });
const accept = (body: unknown) =>
  call(acceptReset, { method: "POST", path: "/v1/employees/password_reset/accept", body });
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

async function adminAndEmployee() {
  // The platform's owner first: deactivating anyone needs an active owner left.
  const owner = await signedInEmployee();
  const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
  const employee = await signedInEmployee({ role: "compliance", platform: admin.account });
  return { admin, employee };
}

describe("POST /v1/employees/{id}/password_reset", () => {
  it("201: a one-time link valid 24 hours, shown once, stored as a hash and audited without it", async () => {
    const { admin, employee } = await adminAndEmployee();
    const before = Date.now();
    const response = await createLink(admin, employee.employee.id);
    const after = Date.now();
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ id: employee.employee.id, status: "active" });
    // No SMTP in this file: nothing was e-mailed, and the answer does not pretend otherwise.
    expect(response.body).not.toHaveProperty("emailed");
    const url = response.body.passwordResetUrl!;
    expect(url).toMatch(new RegExp(`^${ORIGIN}/password-reset\\?token=[A-Za-z0-9_-]{43}$`));
    const expires = new Date(response.body.passwordResetExpiresAt!).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(expires - after).toBeLessThanOrEqual(24 * 3_600_000);
    const row = await db().credentialLink.findUniqueOrThrow({
      where: { employeeId_purpose: { employeeId: employee.employee.id, purpose: "password_reset" } },
    });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(tokenOf(url));
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.password_reset_create", targetId: employee.employee.id },
    });
    expect(audit).toMatchObject({ actorId: admin.employee.id, status: 201, outcome: "success" });
    expect(JSON.stringify(audit.details)).not.toContain(tokenOf(url));
    expect(audit.details).toMatchObject({ after: { passwordResetExpiresAt: response.body.passwordResetExpiresAt } });
  });

  it("the link sets the password once, ends every session, and the employee signs in with the new password", async () => {
    const { admin, employee } = await adminAndEmployee();
    const second = await signedInEmployee({ platform: admin.account });
    const token = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    // Two requests racing with one link: the conditional write lets exactly one through.
    const [first, other] = await Promise.all([
      accept({ token, password: NEW_PASSWORD }),
      accept({ token, password: "another long new password" }),
    ]);
    expect([first.status, other.status].sort()).toEqual([200, 404]);
    const won = first.status === 200 ? first : other;
    expect(won.body).toEqual({ passwordReset: true, endedSessions: 1, signIn: "password" });
    const lost = first.status === 200 ? other : first;
    expectError(lost, 404, "err_not_found");
    expect(lost.body.message).toBe(INVALID);
    const password = won === first ? NEW_PASSWORD : "another long new password";
    expect((await call(whoAmI, { session: employee.session })).status).toBe(401);
    expect((await call(whoAmI, { session: second.session })).status).toBe(200);
    const signedIn = await call(signIn, { method: "POST", body: { email: employee.email, password } });
    expect(signedIn.status).toBe(200);
    const old = await call(signIn, { method: "POST", body: { email: employee.email, password: PASSWORD } });
    expect(old.status).toBe(401);
    // Used: the same link again is refused, and nothing of it is left in the row.
    expectError(await accept({ token, password: NEW_PASSWORD }), 404, "err_not_found");
    expect(await db().credentialLink.count({ where: { employeeId: employee.employee.id } })).toBe(0);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.password_reset_accept", targetId: employee.employee.id, status: 200 },
    });
    expect(audit).toMatchObject({ actorId: employee.employee.id, actorType: "employee" });
    expect(JSON.stringify(audit.details)).not.toContain(token);
  });

  it("404 for a wrong, an expired, a replaced token and one of an employee deactivated since", async () => {
    const { admin, employee } = await adminAndEmployee();
    expectError(await accept({ token: "x".repeat(43), password: NEW_PASSWORD }), 404, "err_not_found");
    const replaced = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    const token = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    expectError(await accept({ token: replaced, password: NEW_PASSWORD }), 404, "err_not_found");
    await db().credentialLink.update({
      where: { employeeId_purpose: { employeeId: employee.employee.id, purpose: "password_reset" } },
      // A second ago by the real clock (Date.now runs ahead here: the authenticator's virtual time steps).
      data: { expiresAt: new Date(new Date().getTime() - 1000) },
    });
    const expired = await accept({ token, password: NEW_PASSWORD });
    expectError(expired, 404, "err_not_found");
    expect(expired.body.message).toBe(INVALID);
    const fresh = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    const gone = await call(deactivate, {
      method: "DELETE",
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      params: { id: employee.employee.id },
    });
    expect(gone.status).toBe(200);
    expectError(await accept({ token: fresh, password: NEW_PASSWORD }), 404, "err_not_found");
    // The employee's password never changed.
    const stillOld = await call(signIn, { method: "POST", body: { email: employee.email, password: NEW_PASSWORD } });
    expect(stillOld.status).toBe(401);
  });

  it("404 once the employee changed their own password meanwhile: the pending link goes", async () => {
    const { admin, employee } = await adminAndEmployee();
    const token = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    const changed = await call(changePassword, {
      method: "POST",
      session: employee.session,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expectError(await accept({ token, password: "another long new password" }), 404, "err_not_found");
    const signedIn = await call(signIn, { method: "POST", body: { email: employee.email, password: NEW_PASSWORD } });
    expect(signedIn.status).toBe(200);
  });

  it("422 in the contract's shape for a short, a common and a missing password, and a missing token; 400 for a non-object", async () => {
    const { admin, employee } = await adminAndEmployee();
    const token = tokenOf((await createLink(admin, employee.employee.id)).body.passwordResetUrl!);
    const short = await accept({ token, password: "short" });
    expectError(short, 422, "err_validation");
    expect(short.body.details).toHaveProperty("password");
    const common = await accept({ token, password: "password1234" });
    expectError(common, 422, "err_validation");
    expect(common.body.details).toHaveProperty("password");
    expectError(await accept({ token }), 422, "err_validation");
    const noToken = await accept({ password: NEW_PASSWORD });
    expectError(noToken, 422, "err_validation");
    expect(noToken.body.details).toHaveProperty("token");
    expectError(await accept([]), 400, "err_bad_request");
    // Still usable: refusals did not spend it.
    expect((await accept({ token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("409 for an invited and a deactivated employee, with a message saying what to do", async () => {
    const admin = await signedInEmployee({ totp: true, role: "admin" });
    const invited = await call(invite, {
      method: "POST",
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      body: { name: "Not Yet", email: `not-yet.${admin.account.id}@example.com`.toLowerCase() },
    });
    expect(invited.status).toBe(201);
    const ofInvited = await createLink(admin, invited.body.id!);
    expectError(ofInvited, 409, "err_conflict");
    expect(ofInvited.body.message).toMatch(/not accepted their invitation yet: create a new invitation link/);
    const leaver = await signedInEmployee({ role: "viewer", platform: admin.account });
    await db().employee.update({ where: { id: leaver.employee.id }, data: { status: "deactivated" } });
    const ofLeaver = await createLink(admin, leaver.employee.id);
    expectError(ofLeaver, 409, "err_conflict");
    expect(ofLeaver.body.message).toBe("This employee is deactivated");
  });

  it("403 for oneself, for an admin on an owner, for a developer and for any API key; 400 without step-up; 404 across platforms", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const developer = await signedInEmployee({ totp: true, role: "developer", platform: owner.account });
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const own = await createLink(admin, admin.employee.id);
    expectError(own, 403, "err_forbidden");
    expect(own.body.message).toMatch(/your own password/);
    const ofOwner = await createLink(admin, owner.employee.id);
    expectError(ofOwner, 403, "err_forbidden");
    expect(ofOwner.body.details).toEqual({ permission: "owners" });
    expect((await createLink(owner, admin.employee.id)).status).toBe(201);
    const byDeveloper = await createLink(developer, viewer.employee.id);
    expect(byDeveloper.body.details).toEqual({ permission: "employees:write" });
    const key = await apiKeyFor(owner.account.id, { permissions: KEY_PERMISSIONS });
    const byKey = await call(POST, { method: "POST", apiKey: key.secret, params: { id: viewer.employee.id } });
    expect(byKey.status).toBe(403);
    const noCode = await call(POST, { method: "POST", session: owner.session, params: { id: viewer.employee.id } });
    expectError(noCode, 400, "err_otp_required");
    const theirs = await signedInEmployee({ role: "viewer" });
    expect((await createLink(owner, theirs.employee.id)).status).toBe(404);
    const links = await db().credentialLink.count({
      where: { employeeId: { in: [owner.employee.id, viewer.employee.id, theirs.employee.id] } },
    });
    expect(links).toBe(0);
  });
});
