import { describe, expect, it } from "vitest";
import { databaseProvider } from "@/lib/env";
import { POST as createDelegatedUser } from "@/app/v1/delegated_users/route";
import { POST as invite } from "@/app/v1/employees/route";
import { POST as acceptInvitation } from "@/app/v1/employees/invitations/accept/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { GET as getInformationRequest } from "@/app/v1/information_requests/[id]/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { PASSWORD, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";

// What the audit trail must hold (docs/security.md, The audit record): every change with its record
// in one commit, refusals on GET by id, and the account a request acted for.
const create = (apiKey: string, externalId: string, headers?: Record<string, string>) =>
  call(createDelegatedUser, { method: "POST", apiKey, body: { externalId }, headers });

const eventsFor = (requestId: string | null) => db().auditEvent.findMany({ where: { requestId: requestId ?? "" } });

/** Makes the audit store refuse one action's success records while `work` runs, as a full disk or a broken table would. */
async function withAuditRefusing<T>(action: string, work: () => Promise<T>): Promise<T> {
  const postgresql = databaseProvider() === "postgresql";
  if (postgresql) {
    await db().$executeRawUnsafe(
      `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit store unavailable'; END; $$`,
    );
    await db().$executeRawUnsafe(
      `CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditEvent" FOR EACH ROW
       WHEN (NEW.action = '${action}' AND NEW.status < 400) EXECUTE FUNCTION refuse_audit()`,
    );
  } else {
    await db().$executeRawUnsafe(
      `CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditEvent" WHEN NEW.action = '${action}' AND NEW.status < 400
       BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END`,
    );
  }
  try {
    return await work();
  } finally {
    await db().$executeRawUnsafe(
      postgresql ? `DROP TRIGGER refuse_audit ON "AuditEvent"` : `DROP TRIGGER refuse_audit`,
    );
    if (postgresql) await db().$executeRawUnsafe(`DROP FUNCTION refuse_audit()`);
  }
}

describe("the audit trail", () => {
  it("a change commits with its record or not at all: when the record cannot be written, the change is undone (500)", async () => {
    const { apiKey, account } = await platformWithKey();
    const refused = await withAuditRefusing("delegated_user.create", () => create(apiKey, "customer-without-record"));
    expectError(refused, 500, "err_internal");
    expect(await db().delegatedUser.count({ where: { accountId: account.id } })).toBe(0);
    const response = await create(apiKey, "customer-with-record");
    expect(response.status).toBe(201);
    const [event] = await eventsFor(response.headers.get("x-request-id"));
    expect(event).toMatchObject({
      action: "delegated_user.create",
      status: 201,
      outcome: "success",
      targetId: response.body.id,
    });
  });

  it("the same for a flow that hashes outside the transaction (accepting an invitation): no activation without its record", async () => {
    const platform = await platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
    const invited = await call(invite, {
      method: "POST",
      apiKey: platform.apiKey,
      body: { name: "Ada", email: `ada.${platform.account.id}@example.com` },
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invitationUrl).searchParams.get("token")!;
    const accept = () =>
      call(acceptInvitation, { method: "POST", body: { token, password: "a long enough password" } });

    const refused = await withAuditRefusing("employee.accept_invitation", accept);
    expect(refused.status).toBe(500);
    const still = await db().employee.findUniqueOrThrow({ where: { id: invited.body.id } });
    expect(still.status).toBe("invited");
    expect(await db().session.count({ where: { employeeId: still.id } })).toBe(0);

    const accepted = await accept();
    expect(accepted.status).toBe(200);
    const [event] = await eventsFor(accepted.headers.get("x-request-id"));
    expect(event).toMatchObject({
      action: "employee.accept_invitation",
      status: 200,
      actorType: "employee",
      actorId: still.id,
      targetId: still.id,
      platformId: platform.account.id,
    });
  });

  it("a sign-in's session commits with its record: none is created when the record cannot be written", async () => {
    const { employee, email } = await signedInEmployee();
    const sessionsBefore = await db().session.count({ where: { employeeId: employee.id } });
    const signInOnce = () => call(signIn, { method: "POST", body: { email, password: PASSWORD }, ip: "203.0.113.77" });
    expect((await withAuditRefusing("session.create", signInOnce)).status).toBe(500);
    expect(await db().session.count({ where: { employeeId: employee.id } })).toBe(sessionsBefore);
    const ok = await signInOnce();
    expect(ok.status).toBe(200);
    expect(await db().session.count({ where: { employeeId: employee.id } })).toBe(sessionsBefore + 1);
    const [event] = await eventsFor(ok.headers.get("x-request-id"));
    expect(event).toMatchObject({
      action: "session.create",
      status: 200,
      actorId: employee.id,
      platformId: employee.accountId,
    });
  });

  it("names the account acted for (Service-Account-Id) beside the caller's own", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const forSub = await create(apiKey, "sub-customer", { "service-account-id": sub.id });
    expect(forSub.status).toBe(201);
    const [event] = await eventsFor(forSub.headers.get("x-request-id"));
    expect(event).toMatchObject({ accountId: account.id, actedForAccountId: sub.id, platformId: account.id });
    const own = await create(apiKey, "own-customer");
    const [ownEvent] = await eventsFor(own.headers.get("x-request-id"));
    expect(ownEvent).toMatchObject({ accountId: account.id, actedForAccountId: account.id });
  });

  it("records refusals on GET by id: 404 probes (unknown and another tenant's ids), 401 and 403", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const theirRequest = await withScope(theirs.scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    const get = (id: string, apiKey?: string) =>
      call(getInformationRequest, { apiKey, params: { id }, path: `/v1/information_requests/${id}` });

    const probes = [await get("ir_doesnotexist00000000", mine.apiKey), await get(theirRequest.id, mine.apiKey)];
    for (const probe of probes) {
      expect(probe.status).toBe(404);
      const [event] = await eventsFor(probe.headers.get("x-request-id"));
      expect(event).toMatchObject({
        status: 404,
        outcome: "failure",
        actorType: "api_key",
        actorId: mine.key.id,
        platformId: mine.account.id,
      });
    }
    // The other tenant's trail does not learn of the probe; the prober's does.
    expect(await db().auditEvent.count({ where: { platformId: theirs.account.id, status: 404 } })).toBe(0);

    const anonymous = await get(theirRequest.id);
    expect(anonymous.status).toBe(401);
    expect(await eventsFor(anonymous.headers.get("x-request-id"))).toHaveLength(1);

    const { apiKey: noReadKey } = await platformWithKey({ permissions: ["delegated_users:read"] });
    const forbidden = await get(theirRequest.id, noReadKey);
    expect(forbidden.status).toBe(403);
    expect(await eventsFor(forbidden.headers.get("x-request-id"))).toHaveLength(1);

    // A successful read is not an audit event (the trail records changes and refusals).
    const ok = await get(theirRequest.id, theirs.apiKey);
    expect(ok.status).toBe(200);
    expect(await eventsFor(ok.headers.get("x-request-id"))).toHaveLength(0);
  });
});
