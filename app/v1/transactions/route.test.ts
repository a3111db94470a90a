import { describe, expect, it } from "vitest";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, cursorOf, idPages } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { recordTransaction } from "@/lib/transactions/transactions";
import { createVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { GET } from "./route";

const list = (apiKey: string, query: Record<string, string> = {}, headers?: Record<string, string>) =>
  call(GET, { apiKey, headers, path: `/v1/transactions?${new URLSearchParams(query)}` });

const record = (scope: Scope, fields: Partial<Parameters<typeof recordTransaction>[0]> = {}) =>
  withScope(scope, () =>
    recordTransaction({ amount: "1.00", currency: "EUR", type: "pay_in", status: "completed", ...fields }),
  );

/** Every page of a listing, following `next`, with the ids in the order served. */
async function pageThrough(apiKey: string, query: Record<string, string>) {
  const pages = await idPages((each) => list(apiKey, each), query);
  return { ids: pages.flat(), pages: pages.length };
}

describe("GET /v1/transactions", () => {
  it("200: the account's transactions, newest first, with every field", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await withScope(scope, () => createVirtualAccount({ currency: "EUR" }));
    const older = await record(scope, {
      createdAt: new Date("2026-01-01T00:00:00Z"),
      type: "fee",
      status: "pending",
      amount: "0.25",
    });
    const newer = await record(scope, { virtualAccountId: account.id, walletAddress: "0xw1", amount: "99.99999999" });
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        {
          id: newer.id,
          virtualAccountId: account.id,
          walletAddress: "0xw1",
          amount: "99.99999999",
          currency: "EUR",
          type: "pay_in",
          status: "completed",
          createdAt: newer.createdAt.toISOString(),
        },
        {
          id: older.id,
          virtualAccountId: null,
          walletAddress: null,
          amount: "0.25",
          currency: "EUR",
          type: "fee",
          status: "pending",
          createdAt: "2026-01-01T00:00:00.000Z",
        },
      ],
      next: null,
    });
  });

  it("200 from an employee session", async () => {
    const { account, session } = await signedInEmployee();
    await record({ platformId: account.id, accountId: account.id });
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body.items).toHaveLength(1);
  });

  it("filters by virtualAccountId, by walletAddress (exact match), and by both combined", async () => {
    const { apiKey, scope } = await platformWithKey();
    const [a, b] = await withScope(scope, async () => [
      await createVirtualAccount({ currency: "EUR" }),
      await createVirtualAccount({ currency: "EUR" }),
    ]);
    const aW1 = await record(scope, { virtualAccountId: a!.id, walletAddress: "0xw1" });
    const aW2 = await record(scope, { virtualAccountId: a!.id, walletAddress: "0xw2" });
    const aNone = await record(scope, { virtualAccountId: a!.id });
    const bW1 = await record(scope, { virtualAccountId: b!.id, walletAddress: "0xw1" });
    const loneW1 = await record(scope, { walletAddress: "0xw1", type: "payout" });
    await record(scope, { walletAddress: "0xW1" });
    const ids = async (query: Record<string, string>) => {
      const response = await list(apiKey, query);
      expect(response.status).toBe(200);
      return response.body.items.map((item) => item.id).sort();
    };
    expect(await ids({ virtualAccountId: a!.id })).toEqual([aW1.id, aW2.id, aNone.id].sort());
    expect(await ids({ walletAddress: "0xw1" })).toEqual([aW1.id, bW1.id, loneW1.id].sort());
    expect(await ids({ virtualAccountId: a!.id, walletAddress: "0xw1" })).toEqual([aW1.id]);
    expect(await ids({ virtualAccountId: b!.id, walletAddress: "0xw2" })).toEqual([]);
    expect(await ids({ virtualAccountId: "va_unknown" })).toEqual([]);
    expect(await ids({})).toHaveLength(6);
  });

  it("pages through 45 rows with limit 20 in both orders, with no repeats or skips (ties broken by id)", async () => {
    const { apiKey, scope } = await platformWithKey();
    const base = Date.parse("2026-06-01T00:00:00Z");
    const created: { id: string; at: number }[] = [];
    for (let i = 0; i < 45; i += 1) {
      // Three rows per timestamp, so page boundaries fall inside runs of equal createdAt.
      const at = base + Math.floor(i / 3) * 1000;
      created.push({ id: (await record(scope, { createdAt: new Date(at) })).id, at });
    }
    const ascending = created.sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : 1)).map((row) => row.id);
    const desc = await pageThrough(apiKey, { limit: "20" });
    expect(desc.pages).toBe(3);
    expect(desc.ids).toEqual([...ascending].reverse());
    const asc = await pageThrough(apiKey, { limit: "20", order: "asc" });
    expect(asc.pages).toBe(3);
    expect(asc.ids).toEqual(ascending);
    const first = await list(apiKey);
    expect(first.body.items).toHaveLength(20);
  });

  it("rows inserted while paging neither repeat nor push an existing row out of view", async () => {
    const { apiKey, scope } = await platformWithKey();
    const existing: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      existing.push((await record(scope, { createdAt: new Date(Date.parse("2026-06-01T00:00:00Z") + i) })).id);
    }
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const response = await list(apiKey, { limit: "10", ...(next ? { next } : {}) });
      seen.push(...response.body.items.map((item) => item.id));
      next = response.body.next;
      await record(scope); // a new, newest row after every page
    } while (next);
    expect(seen).toEqual([...existing].reverse());
  });

  it("filtered paging walks only the filtered rows", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await withScope(scope, () => createVirtualAccount({ currency: "EUR" }));
    const mine: { id: string; createdAt: string }[] = [];
    for (let i = 0; i < 30; i += 1) {
      const row = await record(
        scope,
        i % 2 ? { virtualAccountId: account.id, walletAddress: "0xw" } : { walletAddress: "0xw" },
      );
      if (i % 2) mine.push({ id: row.id, createdAt: new Date(row.createdAt).toISOString() });
    }
    const { ids, pages } = await pageThrough(apiKey, {
      virtualAccountId: account.id,
      walletAddress: "0xw",
      limit: "4",
      order: "asc",
    });
    expect(pages).toBe(4);
    // Oldest first by createdAt, then id: two rows made in the same millisecond are ordered by their (random) ids.
    const byCreation = [...mine].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(ids).toEqual(byCreation.map((row) => row.id));
  });

  it("never shows another platform's rows, and another platform's virtualAccountId gives an empty page", async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    const theirAccount = await withScope(other.scope, () => createVirtualAccount({ currency: "EUR" }));
    await record(other.scope, { virtualAccountId: theirAccount.id, walletAddress: "0xshared" });
    const mine = await record(scope, { walletAddress: "0xshared" });
    expect((await list(apiKey)).body.items.map((item) => item.id)).toEqual([mine.id]);
    expect((await list(apiKey, { walletAddress: "0xshared" })).body.items).toHaveLength(1);
    const leak = await list(apiKey, { virtualAccountId: theirAccount.id });
    expect(leak.status).toBe(200);
    expect(leak.body).toEqual({ items: [], next: null });
  });

  it("a cursor carries no tenant: another platform's cursor only pages the caller's own rows", async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    for (let i = 0; i < 3; i += 1) await record(other.scope);
    await record(scope);
    const theirCursor = cursorOf(await list(other.apiKey, { limit: "1" }));
    const theirIds = new Set((await list(other.apiKey)).body.items.map((item) => item.id));
    for (const order of ["desc", "asc"]) {
      const cursor = order === "desc" ? theirCursor : cursorOf(await list(other.apiKey, { limit: "1", order }));
      const response = await list(apiKey, { next: cursor, order });
      expect(response.status).toBe(200);
      expect(response.body.items.filter((item) => theirIds.has(item.id))).toEqual([]);
    }
  });

  it("Service-Account-Id lists the sub-account's transactions only", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, async () =>
      tenantDb().account.create({
        data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
      }),
    );
    const subRow = await record({ platformId: scope.platformId, accountId: sub.id });
    const ownRow = await record(scope);
    const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);
    expect(idsOf((await list(apiKey, {}, { "service-account-id": sub.id })).body)).toEqual([subRow.id]);
    expect(idsOf((await list(apiKey)).body)).toEqual([ownRow.id]);
  });

  it("422 for a malformed filter, naming the parameter", async () => {
    const { apiKey } = await platformWithKey();
    const cases: [Record<string, string>, string][] = [
      [{ virtualAccountId: "acct_123" }, "virtualAccountId"],
      [{ walletAddress: "" }, "walletAddress"],
      [{ walletAddress: "has space" }, "walletAddress"],
    ];
    for (const [query, field] of cases) {
      const response = await list(apiKey, query);
      expect(response.status, JSON.stringify(query)).toBe(422);
      expect(response.body.error_code).toBe("err_validation");
      expect(Object.keys(response.body.details ?? {})).toEqual([field]);
    }
  });
});
