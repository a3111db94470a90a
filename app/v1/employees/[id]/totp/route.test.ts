import { describe, expect, it } from "vitest";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { DELETE } from "./route";

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
const reset = (by: Staff, id: string) =>
  call(DELETE, { method: "DELETE", session: by.session, totp: by.authenticator!.nextCode(), params: { id } });

describe("DELETE /v1/employees/{id}/totp", () => {
  it("200: their 2FA is off, secret and recovery codes gone, sessions ended; they enrol again after signing in", async () => {
    const admin = await signedInEmployee({ totp: true, role: "admin" });
    const lost = await signedInEmployee({ totp: true, role: "compliance", platform: admin.account });
    const response = await reset(admin, lost.employee.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: lost.employee.id, twoFactorEnabled: false });
    const row = await db().employee.findUniqueOrThrow({ where: { id: lost.employee.id } });
    expect(row).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null });
    expect(await db().recoveryCode.count({ where: { employeeId: lost.employee.id } })).toBe(0);
    expect((await call(whoAmI, { session: lost.session })).status).toBe(401);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.totp_reset", targetId: lost.employee.id },
    });
    expect(audit).toMatchObject({ actorId: admin.employee.id, status: 200 });
  });

  it("403 for one's own 2FA; 403 naming `owners` for an admin resetting an owner's", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const own = await reset(admin, admin.employee.id);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/your own two-factor/);
    const ofOwner = await reset(admin, owner.employee.id);
    expect(ofOwner.status).toBe(403);
    expect(ofOwner.body.details).toEqual({ permission: "owners" });
    expect((await db().employee.findUniqueOrThrow({ where: { id: owner.employee.id } })).totpEnabledAt).not.toBeNull();
  });

  it("403 for a developer (no employees:write) and for any API key (employees only)", async () => {
    const owner = await signedInEmployee({ totp: true });
    const developer = await signedInEmployee({ totp: true, role: "developer", platform: owner.account });
    const target = await signedInEmployee({ totp: true, role: "viewer", platform: owner.account });
    const byDeveloper = await reset(developer, target.employee.id);
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body.details).toEqual({ permission: "employees:write" });
    const key = await apiKeyFor(owner.account.id, { permissions: KEY_PERMISSIONS });
    expect(
      (await call(DELETE, { method: "DELETE", apiKey: key.secret, params: { id: target.employee.id } })).status,
    ).toBe(403);
  });

  it("400 without a current code (step-up); 404 for another platform's employee", async () => {
    const owner = await signedInEmployee({ totp: true });
    const target = await signedInEmployee({ totp: true, role: "viewer", platform: owner.account });
    const theirs = await signedInEmployee({ totp: true });
    const response = await call(DELETE, {
      method: "DELETE",
      session: owner.session,
      params: { id: target.employee.id },
    });
    expectError(response, 400, "err_otp_required");
    expect((await reset(owner, theirs.employee.id)).status).toBe(404);
    expect((await db().employee.findUniqueOrThrow({ where: { id: theirs.employee.id } })).totpEnabledAt).not.toBeNull();
  });
});
