import { describe, expect, it } from "vitest";
import { POST as acceptInvitation } from "@/app/v1/employees/invitations/accept/route";
import { POST as invite } from "@/app/v1/employees/route";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, ORIGIN } from "@/lib/testing/http";
import { POST } from "./route";

const PASSWORD = "an invitee's long password";
type Staff = Awaited<ReturnType<typeof signedInEmployee>>;

const reissue = (by: Staff, id: string) =>
  call(POST, {
    method: "POST",
    path: `/v1/employees/${id}/invitation`,
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
  });
const accept = (token: string) =>
  call(acceptInvitation, {
    method: "POST",
    path: "/v1/employees/invitations/accept",
    body: { token, password: PASSWORD },
  });
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

async function invited(by: Staff, role = "viewer") {
  const response = await call(invite, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    body: { name: "Lost Link", email: `lost.${role}.${by.account.id}@example.com`.toLowerCase(), role },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id!, token: tokenOf(response.body.invitationUrl!) };
}

describe("POST /v1/employees/{id}/invitation", () => {
  it("201: a new link, valid 7 days; the old one stops working, the new one works once; audited without it", async () => {
    const owner = await signedInEmployee({ totp: true });
    const first = await invited(owner);
    const response = await reissue(owner, first.id);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ id: first.id, status: "invited" });
    expect(response.body).not.toHaveProperty("before");
    expect(response.body.invitationUrl).toMatch(new RegExp(`^${ORIGIN}/invitations/accept\\?token=[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(response.body.invitationUrl!);
    expect(token).not.toBe(first.token);
    expectError(await accept(first.token), 404, "err_not_found");
    expect((await accept(token)).status).toBe(200);
    expectError(await accept(token), 404, "err_not_found");
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.invitation_reissue", targetId: first.id },
    });
    expect(audit).toMatchObject({ actorId: owner.employee.id, status: 201 });
    expect(JSON.stringify(audit.details)).not.toContain(token);
    expect(audit.details).toMatchObject({ after: { invitationExpiresAt: response.body.invitationExpiresAt } });
  });

  it("409 once the employee accepted, or was deactivated", async () => {
    const owner = await signedInEmployee({ totp: true });
    const accepted = await invited(owner);
    expect((await accept(accepted.token)).status).toBe(200);
    const answer = await reissue(owner, accepted.id);
    expectError(answer, 409, "err_conflict");
    expect(answer.body.message).toMatch(/already accepted their invitation: create a password-reset link/);
    const active = await signedInEmployee({ role: "viewer", platform: owner.account });
    expectError(await reissue(owner, active.employee.id), 409, "err_conflict");
  });

  it("403 when the caller could not invite with the employee's role; 404 across platforms", async () => {
    const owner = await signedInEmployee({ totp: true });
    const pendingOwner = await invited(owner, "owner");
    const pendingAdmin = await invited(owner, "admin");
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const ofOwner = await reissue(admin, pendingOwner.id);
    expectError(ofOwner, 403, "err_forbidden");
    expect(ofOwner.body.details).toEqual({ permission: "owners" });
    // A key with employees:write but not `roles` re-issues viewers' links only, as it invites only viewers.
    const key = await apiKeyFor(owner.account.id, { permissions: ["employees:read", "employees:write"] });
    const byKey = await call(POST, { method: "POST", apiKey: key.secret, params: { id: pendingAdmin.id } });
    expectError(byKey, 403, "err_forbidden");
    expect(byKey.body.details).toEqual({ permission: "roles" });
    const viewer = await invited(admin, "viewer");
    expect((await call(POST, { method: "POST", apiKey: key.secret, params: { id: viewer.id } })).status).toBe(201);
    const stranger = await signedInEmployee({ totp: true });
    expect((await reissue(stranger, pendingAdmin.id)).status).toBe(404);
    // Nothing was replaced: the first links still work.
    expect((await accept(pendingOwner.token)).status).toBe(200);
    expect((await accept(pendingAdmin.token)).status).toBe(200);
  });
});
