import { describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, idPages } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { createVirtualAccount, deactivateVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { GET } from "./route";

const list = (apiKey: string, query: Record<string, string> = {}, headers?: Record<string, string>) =>
  call(GET, { apiKey, headers, path: `/v1/virtual_accounts?${new URLSearchParams(query)}` });

const open = (scope: Scope, key?: string) => withScope(scope, () => createVirtualAccount({ currency: "EUR", key }));
/** (createdAt, id) descending: the list's default order, ties broken by id. */
const newestFirst = (x: { createdAt: string; id: string }, y: { createdAt: string; id: string }) =>
  y.createdAt.localeCompare(x.createdAt) || y.id.localeCompare(x.id);
const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe("GET /v1/virtual_accounts", () => {
  it("200: the account's virtual accounts, newest first, with every field", async () => {
    const { apiKey, scope } = await platformWithKey();
    const first = await open(scope, "customer-1");
    const second = await withScope(scope, () => createVirtualAccount({ currency: "USDC", key: "customer-2" }));
    const deactivated = await withScope(scope, () => deactivateVirtualAccount({ idOrKey: first.id }));
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        { id: second.id, key: "customer-2", currency: "USDC", isActive: true, createdAt: second.createdAt.toISOString(), deactivatedAt: null },
        {
          id: first.id,
          key: "customer-1",
          currency: "EUR",
          isActive: false,
          createdAt: first.createdAt.toISOString(),
          deactivatedAt: (deactivated.deactivatedAt as Date).toISOString(),
        },
      ].sort(newestFirst),
      next: null,
    });
  });

  it("200 with an empty page for an account without virtual accounts", async () => {
    const { apiKey } = await platformWithKey();
    expect((await list(apiKey)).body).toEqual({ items: [], next: null });
  });

  it("200 from an employee session", async () => {
    const { account, session } = await signedInEmployee();
    const own = await open({ platformId: account.id, accountId: account.id });
    const response = await call(GET, { session, path: "/v1/virtual_accounts" });
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual([own.id]);
  });

  it("isActive=true / false keeps only the active / deactivated ones", async () => {
    const { apiKey, scope } = await platformWithKey();
    const active = await open(scope);
    const inactive = await open(scope);
    await withScope(scope, () => deactivateVirtualAccount({ idOrKey: inactive.id }));
    expect(idsOf((await list(apiKey, { isActive: "true" })).body)).toEqual([active.id]);
    expect(idsOf((await list(apiKey, { isActive: "false" })).body)).toEqual([inactive.id]);
    expect(idsOf((await list(apiKey)).body).sort()).toEqual([active.id, inactive.id].sort());
  });

  it("pages through 25 rows with limit 10 in both orders, with no repeats or skips", async () => {
    const { apiKey, scope } = await platformWithKey();
    const created: string[] = [];
    for (let i = 0; i < 25; i += 1) created.push((await open(scope)).id);
    for (const order of ["desc", "asc"] as const) {
      const pages = await idPages((query) => list(apiKey, query), { limit: "10", order });
      const seen = pages.flat();
      expect(pages).toHaveLength(3);
      expect(new Set(seen).size).toBe(25);
      expect([...seen].sort()).toEqual([...created].sort());
    }
  });

  it("never shows another platform's virtual accounts", async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    await open(other.scope, "theirs");
    const mine = await open(scope, "mine");
    expect(idsOf((await list(apiKey)).body)).toEqual([mine.id]);
  });

  it("Service-Account-Id lists the sub-account's virtual accounts; another platform's account is 404", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, () => createSubAccount({ name: "Sub", parentId: scope.accountId }));
    const subAccount = await open({ platformId: scope.platformId, accountId: sub.id });
    const own = await open(scope);
    expect(idsOf((await list(apiKey, {}, { "service-account-id": sub.id })).body)).toEqual([subAccount.id]);
    expect(idsOf((await list(apiKey)).body)).toEqual([own.id]);
    const other = await platformWithKey();
    expect((await list(apiKey, {}, { "service-account-id": other.account.id })).status).toBe(404);
  });

  it("422 for a malformed isActive, naming the parameter", async () => {
    const { apiKey } = await platformWithKey();
    for (const [query, field] of [
      [{ isActive: "yes" }, "isActive"],
      [{ isActive: "" }, "isActive"],
    ] as const) {
      const response = await list(apiKey, query);
      expect(response.status, JSON.stringify(query)).toBe(422);
      expect(response.body.error_code).toBe("err_validation");
      expect(Object.keys(response.body.details)).toEqual([field]);
    }
  });
});
