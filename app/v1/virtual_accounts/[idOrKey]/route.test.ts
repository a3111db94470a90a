import { describe, expect, it } from "vitest";
import { POST as payIn } from "@/app/v1/sandbox/virtual_accounts/[idOrKey]/pay_in/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { createVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { DELETE } from "./route";

const deactivate = (idOrKey: string, options: Parameters<typeof call>[1] = {}) =>
  call(DELETE, { method: "DELETE", params: { idOrKey }, ...options });
const pay = (idOrKey: string, apiKey: string, body: object = { amount: "10.00", currency: "EUR" }) =>
  call(payIn, { method: "POST", params: { idOrKey }, apiKey, body });
/** An account under the platform; async so the lazy Prisma query runs inside the scope. */
const subAccountOf = (scope: Scope) =>
  withScope(scope, async () =>
    tenantDb().account.create({
      data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
    }),
  );
const openAccount = (scope: Scope, key?: string) =>
  withScope(scope, () => createVirtualAccount({ currency: "EUR", key }));

describe("DELETE /v1/virtual_accounts/{idOrKey}", () => {
  it("200 by id: the account with isActive false and deactivatedAt", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "customer-1");
    const response = await deactivate(account.id, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: account.id,
      key: "customer-1",
      currency: "EUR",
      isActive: false,
      createdAt: account.createdAt.toISOString(),
      deactivatedAt: expect.any(String),
    });
  });

  it("200 by key, naming the same account", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "ref_2026:A-7.x");
    const response = await deactivate("ref_2026:A-7.x", { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: account.id, key: "ref_2026:A-7.x", isActive: false });
  });

  it("200 again for an inactive account, deactivatedAt unchanged, by id or by key", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "twice");
    const first = await deactivate(account.id, { apiKey });
    const byId = await deactivate(account.id, { apiKey });
    const byKey = await deactivate("twice", { apiKey });
    for (const again of [byId, byKey]) {
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
  });

  it("deactivated by id: its pay-ins are refused with 409 while another active account still accepts them", async () => {
    const { apiKey, scope } = await platformWithKey();
    const closed = await openAccount(scope, "closing");
    const open = await openAccount(scope, "staying");
    expect((await pay(closed.id, apiKey)).status).toBe(201);
    await deactivate(closed.id, { apiKey });
    for (const segment of [closed.id, "closing"]) {
      const refused = await pay(segment, apiKey);
      expectError(refused, 409, "err_conflict");
      expect(refused.body.message).toMatch(/deactivated/);
    }
    expect((await pay(open.id, apiKey)).status).toBe(201);
    expect((await pay("staying", apiKey)).status).toBe(201);
  });

  it("deactivated by key: its pay-ins are refused with 409 while another active account still accepts them", async () => {
    const { apiKey, scope } = await platformWithKey();
    const closed = await openAccount(scope, "by-key-closing");
    const open = await openAccount(scope, "by-key-staying");
    expect((await deactivate("by-key-closing", { apiKey })).status).toBe(200);
    expect((await pay(closed.id, apiKey)).status).toBe(409);
    expect((await pay("by-key-closing", apiKey)).status).toBe(409);
    expect((await pay(open.id, apiKey)).status).toBe(201);
  });

  it("200 from an employee session, no TOTP code needed", async () => {
    const { account, session } = await signedInEmployee();
    const scope = { platformId: account.id, accountId: account.id };
    const virtualAccount = await openAccount(scope);
    const response = await deactivate(virtualAccount.key, { session });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(virtualAccount.id);
  });

  it("Service-Account-Id acts for a sub-account: its accounts resolve, the caller's own do not", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await subAccountOf(scope);
    const subScope = { platformId: scope.platformId, accountId: sub.id };
    const subAccount = await openAccount(subScope, "shared-key");
    const ownAccount = await openAccount(scope, "shared-key");
    const headers = { "service-account-id": sub.id };
    expect((await deactivate(ownAccount.id, { apiKey, headers })).status).toBe(404);
    const response = await deactivate("shared-key", { apiKey, headers });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(subAccount.id);
    // The platform's own account with the same key is untouched.
    expect((await db().virtualAccount.findUniqueOrThrow({ where: { id: ownAccount.id } })).isActive).toBe(true);
  });

  it("404 for an unknown id or key, a malformed segment, or another platform's account (by id or key), which stays active", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const theirs = await openAccount(other.scope, "their-key");
    for (const segment of ["va_doesnotexist", "no-such-key", "bad key!", "x".repeat(129), theirs.id, "their-key"]) {
      const response = await deactivate(segment, { apiKey });
      expect(response.status, segment).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect((await pay(theirs.id, other.apiKey)).status).toBe(201);
  });

  it("404 for a Service-Account-Id outside the platform; the account stays active", async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    const account = await openAccount(scope);
    const response = await deactivate(account.id, { apiKey, headers: { "service-account-id": other.account.id } });
    expect(response.status).toBe(404);
    expect((await db().virtualAccount.findUniqueOrThrow({ where: { id: account.id } })).isActive).toBe(true);
  });

  it("401 without a credential", async () => {
    const { scope } = await platformWithKey();
    const account = await openAccount(scope);
    expect((await deactivate(account.id)).status).toBe(401);
    expect((await db().virtualAccount.findUniqueOrThrow({ where: { id: account.id } })).isActive).toBe(true);
  });

  it("403 for a cross-site request from a session", async () => {
    const { account, session } = await signedInEmployee();
    const virtualAccount = await openAccount({ platformId: account.id, accountId: account.id });
    const response = await deactivate(virtualAccount.id, { session, headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
  });

  it("writes the audit record under the account's id, also when named by key", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "audited");
    await deactivate("audited", { apiKey });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { platformId: scope.platformId, action: "virtual_account.deactivate" },
    });
    expect(event).toMatchObject({ targetId: account.id, status: 200, outcome: "success" });
  });
});
