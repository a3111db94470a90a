import { describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { createRecipient, deleteRecipient } from "@/lib/recipients/recipients";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, idPages } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { GET } from "./route";

const list = (apiKey: string, query: Record<string, string> = {}, headers?: Record<string, string>) =>
  call(GET, { apiKey, headers, path: `/v1/recipients?${new URLSearchParams(query)}` });

const save = (scope: Scope, name = "Ada Lovelace") => withScope(scope, () => createRecipient({ name }));
const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe("GET /v1/recipients", () => {
  it("200: the account's recipients with every field; deleted ones are not listed", async () => {
    const { apiKey, scope } = await platformWithKey();
    const kept = await save(scope, "Grace Hopper");
    const deleted = await save(scope, "Leaving");
    await withScope(scope, () => deleteRecipient({ id: deleted.id }));
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [{ id: kept.id, name: "Grace Hopper", isActive: true, deletedAt: null, createdAt: kept.createdAt.toISOString() }],
      next: null,
    });
  });

  it("200 with an empty page for an account without recipients", async () => {
    const { apiKey } = await platformWithKey();
    expect((await list(apiKey)).body).toEqual({ items: [], next: null });
  });

  it("200 from an employee session", async () => {
    const { account, session } = await signedInEmployee();
    const own = await save({ platformId: account.id, accountId: account.id });
    const response = await call(GET, { session, path: "/v1/recipients" });
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual([own.id]);
  });

  it("pages through 25 rows with limit 10, skipping deleted rows, with no repeats or skips", async () => {
    const { apiKey, scope } = await platformWithKey();
    const live: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const recipient = await save(scope, `Recipient ${i}`);
      if (i % 6 === 5) await withScope(scope, () => deleteRecipient({ id: recipient.id }));
      else live.push(recipient.id);
    }
    for (const order of ["desc", "asc"] as const) {
      const pages = await idPages((query) => list(apiKey, query), { limit: "10", order });
      const seen = pages.flat();
      expect(pages).toHaveLength(3);
      expect(new Set(seen).size).toBe(25);
      expect([...seen].sort()).toEqual([...live].sort());
    }
  });

  it("never shows another platform's recipients", async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    await save(other.scope, "Theirs");
    const mine = await save(scope, "Mine");
    expect(idsOf((await list(apiKey)).body)).toEqual([mine.id]);
  });

  it("Service-Account-Id lists the sub-account's recipients; another platform's account is 404", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, () => createSubAccount({ name: "Sub", parentId: scope.accountId }));
    const subRecipient = await save({ platformId: scope.platformId, accountId: sub.id });
    const own = await save(scope);
    expect(idsOf((await list(apiKey, {}, { "service-account-id": sub.id })).body)).toEqual([subRecipient.id]);
    expect(idsOf((await list(apiKey)).body)).toEqual([own.id]);
    const other = await platformWithKey();
    expect((await list(apiKey, {}, { "service-account-id": other.account.id })).status).toBe(404);
  });
});
