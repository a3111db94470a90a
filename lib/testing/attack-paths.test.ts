// The ways in that an outside attack found in release 1, each as a regression test: credentials
// minting credentials, a stolen session inviting an accomplice, offboarding that did not stop
// anyone, and a sub-account's key reaching the rest of its platform.
import { describe, expect, it } from "vitest";
import { GET as listAccounts } from "@/app/v1/accounts/route";
import { POST as issueKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[key]/route";
import { GET as auditEvents } from "@/app/v1/audit_events/route";
import { GET as listDelegatedUsers } from "@/app/v1/delegated_users/route";
import { POST as invite } from "@/app/v1/employees/route";
import { DELETE as deactivate } from "@/app/v1/employees/[id]/route";
import { POST as accept } from "@/app/v1/employees/invitations/accept/route";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { createSubAccount } from "@/lib/accounts/accounts";
import { DEFAULT_KEY_PERMISSIONS, KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, sessionFrom } from "@/lib/testing/http";

let counter = 0;
const email = () => `attack${++counter}.${Date.now()}@example.com`;

describe("attack paths of release 1, closed", () => {
  it("a key cannot invite an employee unless it was given employees:write by name", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect(key.permissions).toEqual([...DEFAULT_KEY_PERMISSIONS]);
    const response = await call(invite, {
      method: "POST",
      apiKey: key.secret,
      body: { name: "Mallory", email: email() },
    });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ permission: "employees:write" });
    expect(await db().employee.count({ where: { accountId: account.id } })).toBe(1);
  });

  it("a key given employees:write invites a viewer, who then cannot issue keys or invite; revoking the key leaves them a viewer", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    const escalate = await call(invite, {
      method: "POST",
      apiKey: key.secret,
      body: { name: "Mallory", email: email(), role: "owner" },
    });
    expect(escalate.status).toBe(403);
    const invited = await call(invite, {
      method: "POST",
      apiKey: key.secret,
      body: { name: "Mallory", email: email() },
    });
    expect(invited.body.role).toBe("viewer");
    const token = new URL(invited.body.invitationUrl).searchParams.get("token")!;
    const accepted = await call(accept, { method: "POST", body: { token, password: "mallory's long password" } });
    const session = sessionFrom(accepted.headers);
    expect((await call(revokeKey, { method: "DELETE", apiKey: key.secret, params: { key: key.id } })).status).toBe(200);
    const me = await call(whoAmI, { session });
    expect(me.body.employee.role).toBe("viewer");
    const minted = await call(issueKey, { method: "POST", session, totp: "123456", body: { expiresAt: inDays(365) } });
    expect(minted.status).toBe(403);
    expect(minted.body.details).toEqual({ permission: "api_keys:write" });
    const accomplice = await call(invite, {
      method: "POST",
      session,
      totp: "123456",
      body: { name: "Accomplice", email: email() },
    });
    expect(accomplice.status).toBe(403);
  });

  it("a sub-account's key cannot invite at all (employees are platform-wide), whatever it holds", async () => {
    const { account } = await signedInEmployee();
    const sub = await withScope({ platformId: account.id, accountId: account.id }, () =>
      createSubAccount({ name: "Sub", parentId: account.id }),
    );
    const key = await apiKeyFor(sub.id, { permissions: KEY_PERMISSIONS });
    const response = await call(invite, {
      method: "POST",
      apiKey: key.secret,
      body: { name: "Mallory", email: email() },
    });
    expect(response.status).toBe(403);
    expect(response.body.message).toMatch(/one account only/);
  });

  it("a stolen session without the owner's authenticator cannot invite an accomplice or issue a key", async () => {
    const owner = await signedInEmployee({ totp: true });
    const inviting = await call(invite, {
      method: "POST",
      session: owner.session,
      body: { name: "Accomplice", email: email(), role: "admin" },
    });
    expectError(inviting, 400, "err_otp_required");
    const guessing = await call(invite, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.wrongCode(),
      body: { name: "Accomplice", email: email() },
    });
    expect(guessing.body.error_code).toBe("err_otp_invalid");
    const issuing = await call(issueKey, { method: "POST", session: owner.session, body: { expiresAt: inDays(365) } });
    expect(issuing.status).toBe(400);
    expect(await db().employee.count({ where: { accountId: owner.account.id } })).toBe(1);
    expect(await db().apiKey.count({ where: { accountId: owner.account.id } })).toBe(0);
  });

  it("an owner without 2FA cannot invite at all: step-up needs an authenticator, and the answer says to enrol", async () => {
    const owner = await signedInEmployee();
    const response = await call(invite, {
      method: "POST",
      session: owner.session,
      totp: "123456",
      body: { name: "Someone", email: email() },
    });
    expectError(response, 400, "err_otp_required");
    expect(response.body.message).toMatch(/enrol/);
  });

  it("a deactivated employee's open session is refused on its very next request", async () => {
    const owner = await signedInEmployee({ totp: true });
    const leaver = await signedInEmployee({ role: "admin", platform: owner.account });
    expect((await call(listDelegatedUsers, { session: leaver.session })).status).toBe(200);
    const done = await call(deactivate, {
      method: "DELETE",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      params: { id: leaver.employee.id },
    });
    expect(done.status).toBe(200);
    const next = await call(listDelegatedUsers, { session: leaver.session });
    expectError(next, 401, "err_unauthenticated");
  });

  it("a sub-account's key cannot reach its parent or its siblings: 404 for their accounts, 403 for platform-wide routes", async () => {
    const { account } = await signedInEmployee();
    const inPlatform = { platformId: account.id, accountId: account.id };
    const sub = await withScope(inPlatform, () => createSubAccount({ name: "Sub", parentId: account.id }));
    const sibling = await withScope(inPlatform, () => createSubAccount({ name: "Sibling", parentId: account.id }));
    const key = await apiKeyFor(sub.id, { permissions: KEY_PERMISSIONS });
    expect((await call(listDelegatedUsers, { apiKey: key.secret })).status).toBe(200);
    expect(
      (await call(listDelegatedUsers, { apiKey: key.secret, headers: { "service-account-id": sub.id } })).status,
    ).toBe(200);
    for (const other of [account.id, sibling.id]) {
      const response = await call(listDelegatedUsers, { apiKey: key.secret, headers: { "service-account-id": other } });
      expectError(response, 404, "err_not_found");
    }
    for (const platformWide of [listAccounts, auditEvents])
      expect((await call(platformWide, { apiKey: key.secret })).status).toBe(403);
  });

  it("no key issues a key stronger than itself, however many hops it takes", async () => {
    const { account } = await signedInEmployee();
    const first = await apiKeyFor(account.id, { permissions: ["api_keys:write", "delegated_users:read"] });
    const second = await call(issueKey, { method: "POST", apiKey: first.secret, body: { expiresAt: inDays(30) } });
    expect(second.body.permissions).toEqual(["api_keys:write", "delegated_users:read"]);
    const third = await call(issueKey, {
      method: "POST",
      apiKey: second.body.secret,
      body: { expiresAt: inDays(30), permissions: ["api_keys:write", "employees:write"] },
    });
    expect(third.status).toBe(403);
    expect(third.body.details).toEqual({ permission: "employees:write" });
  });
});
