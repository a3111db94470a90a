import { describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { db } from "@/lib/db";
import { withScope } from "@/lib/tenancy";
import { platformWithKey } from "@/lib/testing/factories";
import { call, cursorOf, idPages } from "@/lib/testing/http";
import { GET } from "./route";

const page = (apiKey: string, query: Record<string, string>) =>
  call(GET, { apiKey, path: `/v1/accounts/paginate?${new URLSearchParams(query)}` });

/** A platform with five accounts whose creation times are a second apart: [root, sub1, ..., sub4]. */
async function platformWithAccounts() {
  const platform = await platformWithKey();
  const ids = [platform.account.id];
  for (let n = 1; n <= 4; n++) {
    ids.push(
      (await withScope(platform.scope, () => createSubAccount({ name: `Sub ${n}`, parentId: platform.account.id }))).id,
    );
  }
  const start = Date.now() - 60_000;
  for (const [index, id] of ids.entries()) {
    await db().account.update({ where: { id }, data: { createdAt: new Date(start + index * 1000) } });
  }
  return { ...platform, ids };
}

const pageThrough = (apiKey: string, query: Record<string, string>) => idPages((each) => page(apiKey, each), query);

describe("GET /v1/accounts/paginate", () => {
  it("200: { items, next }, newest first and 20 per page by default, next null on the last page", async () => {
    const { apiKey, ids } = await platformWithAccounts();
    const response = await page(apiKey, {});
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["items", "next"]);
    expect(response.body.items.map((item) => item.id)).toEqual([...ids].reverse());
    expect(response.body.next).toBeNull();
    expect(response.body.items[4]).toMatchObject({ parentId: null, featureFlags: {} });
  });

  it("200: next round-trips through every page in either order, each account once", async () => {
    const { apiKey, ids } = await platformWithAccounts();
    expect(await pageThrough(apiKey, { limit: "2", order: "asc" })).toEqual([
      ids.slice(0, 2),
      ids.slice(2, 4),
      ids.slice(4),
    ]);
    const reversed = [...ids].reverse();
    expect(await pageThrough(apiKey, { limit: "2", order: "desc" })).toEqual([
      reversed.slice(0, 2),
      reversed.slice(2, 4),
      reversed.slice(4),
    ]);
    expect(await pageThrough(apiKey, { limit: "5", order: "asc" })).toEqual([ids]);
  });

  it("200: an account created while paging neither repeats nor pushes out a row that existed", async () => {
    const { apiKey, ids, scope, account } = await platformWithAccounts();
    const first = await page(apiKey, { limit: "2", order: "asc" });
    const added = await withScope(scope, () => createSubAccount({ name: "New", parentId: account.id }));
    const second = await page(apiKey, { limit: "2", order: "asc", next: cursorOf(first) });
    const third = await page(apiKey, { limit: "2", order: "asc", next: cursorOf(second) });
    const seen = [first, second, third].flatMap((response) => response.body.items.map((item) => item.id));
    expect(seen.slice(0, 5)).toEqual(ids);
    expect(seen.slice(5)).toEqual([added.id]);
  });

  it("never shows another platform's accounts", async () => {
    const mine = await platformWithAccounts();
    const theirs = await platformWithAccounts();
    const ids = (await pageThrough(mine.apiKey, { limit: "3" })).flat();
    expect(ids.sort()).toEqual([...mine.ids].sort());
    expect(ids.some((id) => theirs.ids.includes(id))).toBe(false);
  });
});
