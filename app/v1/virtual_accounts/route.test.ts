import { describe, expect, it } from "vitest";
import { platformWithKey } from "@/lib/testing/factories";
import { accountListTests } from "@/lib/testing/account-list";
import { call, expectEachIdOnce } from "@/lib/testing/http";
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
  accountListTests("virtual accounts", GET, open);

  it("200: the account's virtual accounts, newest first, with every field", async () => {
    const { apiKey, scope } = await platformWithKey();
    const first = await open(scope, "customer-1");
    const second = await withScope(scope, () => createVirtualAccount({ currency: "USDC", key: "customer-2" }));
    const deactivated = await withScope(scope, () => deactivateVirtualAccount({ idOrKey: first.id }));
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        {
          id: second.id,
          key: "customer-2",
          currency: "USDC",
          isActive: true,
          createdAt: second.createdAt.toISOString(),
          deactivatedAt: null,
        },
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
    await expectEachIdOnce((query) => list(apiKey, query), created, { limit: "10", pageCount: 3 });
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
      expect(Object.keys(response.body.details ?? {})).toEqual([field]);
    }
  });
});
