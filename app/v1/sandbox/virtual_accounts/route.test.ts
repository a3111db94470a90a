import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });
const subAccountOf = (scope: Scope) =>
  withScope(scope, async () =>
    tenantDb().account.create({
      data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
    }),
  );

describe("POST /v1/sandbox/virtual_accounts", () => {
  it("201 with the given key: an active virtual account of the caller's account", async () => {
    const { apiKey, scope } = await platformWithKey();
    const response = await create({ apiKey, body: { currency: "USDC", key: "customer-42" } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^va_[a-z0-9]+$/),
      key: "customer-42",
      currency: "USDC",
      isActive: true,
      createdAt: expect.any(String),
      deactivatedAt: null,
    });
    const row = await db().virtualAccount.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row.accountId).toBe(scope.accountId);
  });

  it("201 with a generated, readable key when none is given", async () => {
    const { apiKey } = await platformWithKey();
    const first = await create({ apiKey, body: { currency: "EUR" } });
    const second = await create({ apiKey, body: { currency: "EUR" } });
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^VA-[0-9A-Z]{10}$/);
    expect(second.body.key).not.toBe(first.body.key);
  });

  it("201 from an employee session, no TOTP code needed", async () => {
    const { session } = await signedInEmployee({ totp: true });
    expect((await create({ session, body: { currency: "EUR" } })).status).toBe(201);
  });

  it("201 for a sub-account with Service-Account-Id", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await subAccountOf(scope);
    const response = await create({
      apiKey,
      headers: { "service-account-id": sub.id },
      body: { currency: "EUR", key: "k1" },
    });
    expect(response.status).toBe(201);
    expect((await db().virtualAccount.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(sub.id);
    // Keys are unique per account: the platform's own account may use the same one.
    expect((await create({ apiKey, body: { currency: "EUR", key: "k1" } })).status).toBe(201);
  });

  it("409 for a key already used in the account; another platform may use it", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    expect((await create({ apiKey, body: { currency: "EUR", key: "dup" } })).status).toBe(201);
    const again = await create({ apiKey, body: { currency: "USD", key: "dup" } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "err_conflict", details: { key: "already in use" } });
    expect((await create({ apiKey: other.apiKey, body: { currency: "EUR", key: "dup" } })).status).toBe(201);
  });

  it("422 naming each bad field", async () => {
    const { apiKey } = await platformWithKey();
    const cases: [object, string[]][] = [
      [{}, ["currency"]],
      [{ currency: "eur" }, ["currency"]],
      [{ currency: "EUR", key: "" }, ["key"]],
      [{ currency: "EUR", key: "has space" }, ["key"]],
      [{ currency: "EUR", key: "k".repeat(129) }, ["key"]],
      [{ currency: "EUR", key: "va_looksliketheid" }, ["key"]],
      [{ currency: 978, key: 5 }, ["currency", "key"]],
    ];
    for (const [body, fields] of cases) {
      const response = await create({ apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error_code).toBe("err_validation");
      expect(Object.keys(response.body.details ?? {}).sort()).toEqual(fields);
    }
  });

  it("404 for a Service-Account-Id of another platform", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const response = await create({
      apiKey,
      headers: { "service-account-id": other.account.id },
      body: { currency: "EUR" },
    });
    expect(response.status).toBe(404);
    expect(await db().virtualAccount.count({ where: { accountId: other.account.id } })).toBe(0);
  });
});
