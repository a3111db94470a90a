import { describe, expect, it } from "vitest";
import { GET as listEmployees } from "@/app/v1/employees/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET, POST } from "./route";

const NO_SLA = { due_diligence: null, endorsement: null };
/** Keys without their own limit: 100 requests per second, as Stripe's live mode. */
const DEFAULT_RATE = { requests: 100, perSeconds: 1 };
const DEFAULT_RETENTION = { webhookPayloadDays: 30, sessionDays: 30, recordsYears: 5 };

describe("GET and POST /v1/settings", () => {
  it("both off on a new platform; an owner turns one on with a code, the other keeps its value", async () => {
    const owner = await signedInEmployee({ totp: true });
    expect((await call(GET, { session: owner.session })).body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: false,
      slaHours: NO_SLA,
      defaultKeyRateLimit: DEFAULT_RATE,
      retention: DEFAULT_RETENTION,
      sso: null,
    });
    const changed = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { fourEyesApproval: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: true,
      slaHours: NO_SLA,
      defaultKeyRateLimit: DEFAULT_RATE,
      retention: DEFAULT_RETENTION,
      sso: null,
    });
    expect((await call(GET, { session: owner.session })).body).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: true,
      slaHours: NO_SLA,
      defaultKeyRateLimit: DEFAULT_RATE,
      retention: DEFAULT_RETENTION,
      sso: null,
    });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "settings.update", actorId: owner.employee.id },
    });
    expect(audit.details).toEqual({
      fourEyesApproval: true,
      before: {
        requireTwoFactor: false,
        fourEyesApproval: false,
        slaHours: NO_SLA,
        defaultKeyRateLimit: DEFAULT_RATE,
        retention: DEFAULT_RETENTION,
        sso: null,
      },
      after: {
        requireTwoFactor: false,
        fourEyesApproval: true,
        slaHours: NO_SLA,
        defaultKeyRateLimit: DEFAULT_RATE,
        retention: DEFAULT_RETENTION,
        sso: null,
      },
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
      slaHours: NO_SLA,
      defaultKeyRateLimit: DEFAULT_RATE,
      retention: DEFAULT_RETENTION,
      sso: null,
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

  it("slaHours: a partial update keeps the other kind, null removes one, audited; only later requests get a dueAt", async () => {
    const owner = await signedInEmployee({ totp: true });
    const scope = { platformId: owner.account.id, accountId: owner.account.id };
    const before = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    const save = (body: unknown) =>
      call(POST, { method: "POST", session: owner.session, totp: owner.authenticator!.nextCode(), body });
    const first = await save({ slaHours: { due_diligence: 24, endorsement: 8760 } });
    expect(first.status).toBe(200);
    expect(first.body.slaHours).toEqual({ due_diligence: 24, endorsement: 8760 });
    const second = await save({ slaHours: { endorsement: null } });
    expect(second.body.slaHours).toEqual({ due_diligence: 24, endorsement: null });
    expect((await call(GET, { session: owner.session })).body.slaHours).toEqual({
      due_diligence: 24,
      endorsement: null,
    });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "settings.update", actorId: owner.employee.id },
      orderBy: [{ at: "desc" }, { id: "desc" }],
    });
    expect(audit.details).toMatchObject({
      slaHours: { endorsement: null },
      before: { slaHours: { due_diligence: 24, endorsement: 8760 } },
      after: { slaHours: { due_diligence: 24, endorsement: null } },
    });
    const after = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    expect(after.dueAt).toEqual(new Date(after.createdAt.getTime() + 24 * 3_600_000));
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: before.id } })).dueAt).toBeNull();
  });

  it("422 naming slaHours' field for hours out of 1..8760, fractions and strings", async () => {
    const owner = await signedInEmployee({ totp: true });
    const cases: [unknown, string][] = [
      [{ due_diligence: 0 }, "slaHours.due_diligence"],
      [{ due_diligence: 8761 }, "slaHours.due_diligence"],
      [{ endorsement: 1.5 }, "slaHours.endorsement"],
      [{ endorsement: "24" }, "slaHours.endorsement"],
      [{ endorsement: -1 }, "slaHours.endorsement"],
      [24, "slaHours"],
    ];
    for (const [slaHours, field] of cases) {
      const response = await call(POST, {
        method: "POST",
        session: owner.session,
        totp: owner.authenticator!.nextCode(),
        body: { slaHours },
      });
      expect(response.status, JSON.stringify(slaHours)).toBe(422);
      expect(Object.keys(response.body.details ?? {}), JSON.stringify(slaHours)).toEqual([field]);
    }
  });
});
