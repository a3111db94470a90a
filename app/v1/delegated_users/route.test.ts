import { describe, expect, it } from "vitest";
import { POST as createSandboxAccount } from "@/app/v1/sandbox/accounts/route";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { withScope } from "@/lib/tenancy";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, cursorOf, expectError, idPages } from "@/lib/testing/http";
import { GET, POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });
const list = (apiKey: string, query: Record<string, string> = {}, headers?: Record<string, string>) =>
  call(GET, { apiKey, headers, path: `/v1/delegated_users?${new URLSearchParams(query)}` });
const idsOf = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

/** Five delegated users of one account, a second apart in creation time, oldest first. */
async function accountWithUsers() {
  const platform = await platformWithKey();
  const ids: string[] = [];
  const start = Date.now() - 60_000;
  for (let n = 0; n < 5; n++) {
    const user = await withScope(platform.scope, () => createDelegatedUser({ externalId: `user-${n}` }));
    await db().delegatedUser.update({ where: { id: user.id }, data: { createdAt: new Date(start + n * 1000) } });
    ids.push(user.id);
  }
  return { ...platform, ids };
}

describe("POST /v1/delegated_users", () => {
  it("201: id, trimmed externalId and createdAt, nothing else", async () => {
    const { apiKey, account } = await platformWithKey();
    const response = await create({ apiKey, body: { externalId: "  customer-42  " } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^du_[a-z0-9]{20}$/),
      externalId: "customer-42",
      createdAt: expect.any(String),
    });
    const row = await db().delegatedUser.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row.accountId).toBe(account.id);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "delegated_user.create", targetId: response.body.id },
    });
    expect(event.status).toBe(201);
  });

  it("201 by employee session, with no TOTP code", async () => {
    const { session } = await signedInEmployee();
    expect((await create({ session, body: { externalId: "from-dashboard" } })).status).toBe(201);
  });

  it("409 err_conflict for an externalId already used in the account (after trimming)", async () => {
    const { apiKey } = await platformWithKey();
    expect((await create({ apiKey, body: { externalId: "dup" } })).status).toBe(201);
    const again = await create({ apiKey, body: { externalId: " dup " } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error_code: "err_conflict",
      http_code: 409,
      details: { externalId: "already exists" },
    });
    expect(await db().delegatedUser.count({ where: { externalId: "dup" } })).toBe(1);
  });

  it("409, not 500, for a duplicate written by another process a moment before: the unique index decides", async () => {
    const { apiKey, account } = await platformWithKey();
    // As another instance would have, straight into the database.
    await db().delegatedUser.create({ data: { id: newId("du"), accountId: account.id, externalId: "raced" } });
    const response = await create({ apiKey, body: { externalId: "raced" } });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error_code: "err_conflict", details: { externalId: "already exists" } });
  });

  it("of concurrent creates with one externalId, exactly one succeeds and the rest answer 409", async () => {
    const { apiKey } = await platformWithKey();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => create({ apiKey, body: { externalId: "burst" } })),
    );
    expect(results.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await db().delegatedUser.count({ where: { externalId: "burst" } })).toBe(1);
  });

  it("the same externalId is free in another platform and in another account of the platform (Service-Account-Id)", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    expect((await create({ apiKey: mine.apiKey, body: { externalId: "shared" } })).status).toBe(201);
    expect((await create({ apiKey: theirs.apiKey, body: { externalId: "shared" } })).status).toBe(201);
    const { body: sub } = await call(createSandboxAccount, {
      method: "POST",
      apiKey: mine.apiKey,
      body: { name: "Sub" },
    });
    const forSub = await create({
      apiKey: mine.apiKey,
      headers: { "service-account-id": sub.id },
      body: { externalId: "shared" },
    });
    expect(forSub.status).toBe(201);
    expect((await db().delegatedUser.findUniqueOrThrow({ where: { id: forSub.body.id } })).accountId).toBe(sub.id);
  });

  it("422 naming externalId when missing, blank, too long or not a string", async () => {
    const { apiKey } = await platformWithKey();
    for (const body of [
      {},
      { externalId: "" },
      { externalId: "   " },
      { externalId: "x".repeat(256) },
      { externalId: 42 },
      { externalId: null },
    ]) {
      const response = await create({ apiKey, body });
      expectError(response, 422, "err_validation");
      expect(Object.keys(response.body.details ?? {})).toEqual(["externalId"]);
    }
    expect((await create({ apiKey, body: { externalId: "x".repeat(255) } })).status).toBe(201);
  });
});

describe("GET /v1/delegated_users", () => {
  it("200: { items, next }, newest first by default", async () => {
    const { apiKey, ids } = await accountWithUsers();
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([...ids].reverse());
    expect(response.body.next).toBeNull();
    expect(response.body.items[0]).toEqual({ id: ids[4], externalId: "user-4", createdAt: expect.any(String) });
  });

  it("200: next round-trips through every page in either order, each user once", async () => {
    const { apiKey, ids } = await accountWithUsers();
    for (const order of ["asc", "desc"] as const) {
      const expected = order === "asc" ? ids : [...ids].reverse();
      const seen = await idPages((query) => list(apiKey, query), { order, limit: "2" });
      expect(seen).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    }
  });

  it("200: a user created while paging neither repeats nor displaces one that existed", async () => {
    const { apiKey, ids } = await accountWithUsers();
    const first = await list(apiKey, { limit: "2" });
    await create({ apiKey, body: { externalId: "newcomer" } });
    const second = await list(apiKey, { limit: "2", next: cursorOf(first) });
    const third = await list(apiKey, { limit: "2", next: cursorOf(second) });
    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)]).toEqual([...ids].reverse());
    expect(third.body.next).toBeNull();
  });

  it("200 filtered by exact externalId, paginated as usual", async () => {
    const { apiKey, ids } = await accountWithUsers();
    const exact = await list(apiKey, { externalId: "user-3" });
    expect(idsOf(exact)).toEqual([ids[3]]);
    expect(idsOf(await list(apiKey, { externalId: "user-" }))).toEqual([]);
    expect(idsOf(await list(apiKey, { externalId: "USER-3" }))).toEqual([]);
  });

  it("never shows another platform's users, nor another account's without Service-Account-Id", async () => {
    const mine = await accountWithUsers();
    const theirs = await accountWithUsers();
    const response = await list(mine.apiKey, { limit: "100" });
    expect(idsOf(response).sort()).toEqual([...mine.ids].sort());
    expect(idsOf(await list(mine.apiKey, { externalId: "user-1" }))).toEqual([mine.ids[1]]);
    expect(idsOf(response).some((id: string) => theirs.ids.includes(id))).toBe(false);

    const { body: sub } = await call(createSandboxAccount, {
      method: "POST",
      apiKey: mine.apiKey,
      body: { name: "Sub" },
    });
    const subUser = await create({
      apiKey: mine.apiKey,
      headers: { "service-account-id": sub.id },
      body: { externalId: "sub-user" },
    });
    expect(idsOf(await list(mine.apiKey, { externalId: "sub-user" }))).toEqual([]);
    expect(idsOf(await list(mine.apiKey, {}, { "service-account-id": sub.id }))).toEqual([subUser.body.id]);
  });

  it("422 naming externalId when too long", async () => {
    const { apiKey } = await platformWithKey();
    const response = await list(apiKey, { externalId: "x".repeat(256) });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["externalId"]);
  });
});
