import { describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { db } from "@/lib/db";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET, POST } from "./route";

const update = (accountId: string, options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", params: { accountId }, ...options });

const storedFlags = async (id: string) => (await db().account.findUniqueOrThrow({ where: { id } })).featureFlags;

describe("POST /v1/accounts/{accountId}", () => {
  it("200: the updated account; given flags are merged into the stored map", async () => {
    const { account, apiKey } = await platformWithKey();
    const first = await update(account.id, { apiKey, body: { featureFlags: { named: "prefer" } } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: account.id,
      name: account.name,
      parentId: null,
      featureFlags: { named: "prefer" },
      createdAt: account.createdAt.toISOString(),
    });
    const second = await update(account.id, { apiKey, body: { featureFlags: { partner: "forbid" } } });
    expect(second.body.featureFlags).toEqual({ named: "prefer", partner: "forbid" });
    const third = await update(account.id, { apiKey, body: { featureFlags: { named: "require" } } });
    expect(third.body.featureFlags).toEqual({ named: "require", partner: "forbid" });
    const unchanged = await update(account.id, { apiKey, body: { featureFlags: {} } });
    expect(unchanged.body.featureFlags).toEqual({ named: "require", partner: "forbid" });
    expect(await storedFlags(account.id)).toEqual({ named: "require", partner: "forbid" });
  });

  it("200 for every allowed value", async () => {
    const { account, apiKey } = await platformWithKey();
    for (const value of ["require", "prefer", "discourage", "forbid"]) {
      const response = await update(account.id, { apiKey, body: { featureFlags: { named: value, partner: value } } });
      expect(response.status).toBe(200);
      expect(response.body.featureFlags).toEqual({ named: value, partner: value });
    }
  });

  it("200 for a sub-account of the platform, leaving the platform's own account alone", async () => {
    const { account, apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, () => createSubAccount({ name: "Sub", parentId: account.id }));
    const response = await update(sub.id, { apiKey, body: { featureFlags: { partner: "discourage" } } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: sub.id, parentId: account.id, featureFlags: { partner: "discourage" } });
    expect(await storedFlags(account.id)).toEqual({});
  });

  it("200 by employee session, with no TOTP code", async () => {
    const { account, session } = await signedInEmployee();
    const response = await update(account.id, { session, body: { featureFlags: { named: "forbid" } } });
    expect(response.status).toBe(200);
    expect(response.body.featureFlags).toEqual({ named: "forbid" });
  });

  it("two concurrent updates of different flags both take effect", async () => {
    const { account, apiKey } = await platformWithKey();
    const results = await Promise.all([
      update(account.id, { apiKey, body: { featureFlags: { named: "prefer" } } }),
      update(account.id, { apiKey, body: { featureFlags: { partner: "forbid" } } }),
      update(account.id, { apiKey, body: { featureFlags: { named: "prefer" } } }),
    ]);
    expect(results.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await storedFlags(account.id)).toEqual({ named: "prefer", partner: "forbid" });
  });

  it("writes the audit record account.update_feature_flags", async () => {
    const { account, apiKey, key } = await platformWithKey();
    await update(account.id, { apiKey, body: { featureFlags: { named: "prefer" } } });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "account.update_feature_flags", targetId: account.id },
    });
    expect(event).toMatchObject({
      actorType: "api_key",
      actorId: key.id,
      platformId: account.id,
      status: 200,
      outcome: "success",
    });
  });

  it("404 for another platform's account (unchanged), an unknown or a malformed id", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const theirSub = await withScope(theirs.scope, () =>
      createSubAccount({ name: "Theirs", parentId: theirs.account.id }),
    );
    for (const id of [theirs.account.id, theirSub.id, "acct_doesnotexist", "key_abc", "../accounts"]) {
      const response = await update(id, { apiKey: mine.apiKey, body: { featureFlags: { named: "forbid" } } });
      expectError(response, 404, "err_not_found");
    }
    expect(await storedFlags(theirs.account.id)).toEqual({});
    expect(await storedFlags(theirSub.id)).toEqual({});
  });

  // Regression: a sub-account's key could change its parent's flags (and, through the tenancy filter
  // overwriting the path's id, a request for another account changed the key's own account instead).
  it("a sub-account's key reaches its own account only: 404 for its parent, a sibling and another platform", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const theirSub = await withScope(theirs.scope, () =>
      createSubAccount({ name: "Theirs", parentId: theirs.account.id }),
    );
    const sibling = await withScope(theirs.scope, () =>
      createSubAccount({ name: "Sibling", parentId: theirs.account.id }),
    );
    const subKey = await apiKeyFor(theirSub.id);
    const body = { featureFlags: { named: "prefer" } };
    for (const accountId of [theirs.account.id, sibling.id, mine.account.id]) {
      expect((await update(accountId, { apiKey: subKey.secret, body })).status).toBe(404);
    }
    expect(await storedFlags(theirSub.id)).toEqual({});
    expect((await update(theirSub.id, { apiKey: subKey.secret, body })).status).toBe(200);
    expect(await storedFlags(theirSub.id)).toEqual({ named: "prefer" });
    expect(await storedFlags(theirs.account.id)).toEqual({});
  });

  it("422 naming an unknown flag and a bad value, each at its own path", async () => {
    const { account, apiKey } = await platformWithKey();
    const unknown = await update(account.id, { apiKey, body: { featureFlags: { foo: "prefer" } } });
    expectError(unknown, 422, "err_validation");
    expect(Object.keys(unknown.body.details ?? {})).toEqual(["featureFlags.foo"]);
    const both = await update(account.id, {
      apiKey,
      body: { featureFlags: { named: "always", foo: "prefer", partner: null } },
    });
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.details ?? {}).sort()).toEqual([
      "featureFlags.foo",
      "featureFlags.named",
      "featureFlags.partner",
    ]);
    expect(both.body.details?.["featureFlags.named"]).toMatch(/require, prefer, discourage, forbid/);
    expect(await storedFlags(account.id)).toEqual({});
  });

  it("422 naming featureFlags when it is missing or not a map", async () => {
    const { account, apiKey } = await platformWithKey();
    for (const body of [{}, { featureFlags: "prefer" }, { featureFlags: ["named"] }, { featureFlags: null }]) {
      const response = await update(account.id, { apiKey, body });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["featureFlags"]);
    }
  });

  it("403 for a cross-site request with a session cookie", async () => {
    const { account, session } = await signedInEmployee();
    const response = await update(account.id, {
      session,
      body: { featureFlags: {} },
      headers: { origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
  });

  it("405 for GET", async () => {
    const { account, apiKey } = await platformWithKey();
    expect((await call(GET, { apiKey, params: { accountId: account.id } })).status).toBe(405);
  });
});
