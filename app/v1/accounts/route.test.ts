import { describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { db } from "@/lib/db";
import { withScope } from "@/lib/tenancy";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { GET } from "./route";

describe("GET /v1/accounts", () => {
  it("200: a plain array of the platform's own account and its sub-accounts, oldest first", async () => {
    const { account, apiKey, scope } = await platformWithKey();
    const later = await withScope(scope, () => createSubAccount({ name: "Later", parentId: account.id }));
    const earlier = await withScope(scope, () => createSubAccount({ name: "Earlier", parentId: later.id }));
    // Creation time, not insertion order or id, decides the order.
    await db().account.update({ where: { id: later.id }, data: { createdAt: new Date(Date.now() + 60_000) } });
    await db().account.update({ where: { id: account.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const response = await call(GET, { apiKey });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.map((item) => item.id)).toEqual([account.id, earlier.id, later.id]);
    expect(response.body[0]).toEqual({
      id: account.id,
      name: account.name,
      parentId: null,
      featureFlags: {},
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(response.body[1]).toMatchObject({ name: "Earlier", parentId: later.id });
  });

  it("200 by employee session", async () => {
    const { session, account } = await signedInEmployee();
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body.map((item) => item.id)).toEqual([account.id]);
  });

  it("never lists another platform's accounts, whichever account of the platform the key belongs to", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const theirSub = await withScope(theirs.scope, () =>
      createSubAccount({ name: "Theirs", parentId: theirs.account.id }),
    );
    const mySub = await withScope(mine.scope, () => createSubAccount({ name: "Mine", parentId: mine.account.id }));
    // A platform and its sub-account can share a millisecond (the list then falls back to the random ids): the roots are made older.
    for (const root of [mine.account, theirs.account])
      await db().account.update({ where: { id: root.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const response = await call(GET, { apiKey: mine.apiKey });
    const ids = response.body.map((item) => item.id);
    expect(ids).toEqual([mine.account.id, mySub.id]);
    expect(ids).not.toContain(theirs.account.id);
    expect(ids).not.toContain(theirSub.id);
    const theirList = await call(GET, { apiKey: theirs.apiKey });
    expect(theirList.body.map((item) => item.id)).toEqual([theirs.account.id, theirSub.id]);
  });
});
