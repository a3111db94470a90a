import { describe, expect, it } from "vitest";
import { GET as listEmployees } from "@/app/v1/employees/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET, POST } from "./route";

describe("GET and POST /v1/settings", () => {
  it("both off on a new platform; an owner turns one on with a code, the other keeps its value", async () => {
    const owner = await signedInEmployee({ totp: true });
    expect((await call(GET, { session: owner.session })).body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: false,
    });
    const changed = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { fourEyesApproval: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ requireTwoFactor: false, fourEyesApproval: true });
    expect((await call(GET, { session: owner.session })).body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: true,
    });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "settings.update", actorId: owner.employee.id },
    });
    expect(audit.details).toEqual({
      fourEyesApproval: true,
      before: { requireTwoFactor: false, fourEyesApproval: false },
      after: { requireTwoFactor: false, fourEyesApproval: true },
    });
  });

  it("requireTwoFactor holds back an employee without 2FA at once, with err_two_factor_required", async () => {
    const owner = await signedInEmployee({ totp: true });
    const without = await signedInEmployee({ role: "admin", platform: owner.account });
    expect((await call(listEmployees, { session: without.session })).status).toBe(200);
    await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { requireTwoFactor: true },
    });
    const held = await call(listEmployees, { session: without.session });
    expectError(held, 403, "err_two_factor_required");
    expect((await call(listEmployees, { session: owner.session })).status).toBe(200);
  });

  it("400 without a code; 403 for a developer, and for any key, whatever it holds", async () => {
    const owner = await signedInEmployee({ totp: true });
    const developer = await signedInEmployee({ totp: true, role: "developer", platform: owner.account });
    const noCode = await call(POST, { method: "POST", session: owner.session, body: { requireTwoFactor: true } });
    expect(noCode.status).toBe(400);
    const byDeveloper = await call(POST, {
      method: "POST",
      session: developer.session,
      totp: developer.authenticator!.nextCode(),
      body: { requireTwoFactor: true },
    });
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body.details).toEqual({ permission: "settings:write" });
    const key = await apiKeyFor(owner.account.id, { permissions: KEY_PERMISSIONS });
    const byKey = await call(POST, { method: "POST", apiKey: key.secret, body: { requireTwoFactor: true } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.details).toEqual({ permission: "settings:write" });
    expect((await call(GET, { apiKey: key.secret })).body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: false,
    });
  });

  it("422 for a value that is not a boolean", async () => {
    const owner = await signedInEmployee({ totp: true });
    const response = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { requireTwoFactor: "yes" },
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["requireTwoFactor"]);
  });
});
