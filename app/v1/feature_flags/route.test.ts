import { describe, expect, it } from "vitest";
import { POST as createSandboxAccount } from "@/app/v1/sandbox/accounts/route";
import { db } from "@/lib/db";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET, POST } from "./route";

const update = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });
const storedFlags = async (id: string) => (await db().account.findUniqueOrThrow({ where: { id } })).featureFlags;

/** A platform and a sub-account created through the sandbox route, as an integrator would. */
async function platformWithSubAccount() {
  const platform = await platformWithKey();
  const created = await call(createSandboxAccount, {
    method: "POST",
    apiKey: platform.apiKey,
    body: { name: "Merchant" },
  });
  expect(created.status).toBe(201);
  return { ...platform, subAccountId: created.body.id as string };
}

describe("GET /v1/feature_flags", () => {
  it("200: an empty map for a new account, then what was set", async () => {
    const { apiKey } = await platformWithKey();
    const empty = await call(GET, { apiKey });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({});
    await update({ apiKey, body: { partner: "discourage" } });
    expect((await call(GET, { apiKey })).body).toEqual({ partner: "discourage" });
  });

  it("200 by employee session", async () => {
    const { session } = await signedInEmployee();
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
  });

  it("200 with Service-Account-Id: the sub-account's map, not the caller's", async () => {
    const { apiKey, subAccountId } = await platformWithSubAccount();
    await update({ apiKey, body: { named: "require" } });
    await update({ apiKey, headers: { "service-account-id": subAccountId }, body: { named: "forbid" } });
    expect((await call(GET, { apiKey, headers: { "service-account-id": subAccountId } })).body).toEqual({
      named: "forbid",
    });
    expect((await call(GET, { apiKey })).body).toEqual({ named: "require" });
  });
});

describe("POST /v1/feature_flags", () => {
  it("200: merges the given flags into the map and answers the whole map", async () => {
    const { apiKey, account } = await platformWithKey();
    const first = await update({ apiKey, body: { named: "prefer" } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ named: "prefer" });
    const second = await update({ apiKey, body: { partner: "forbid" } });
    expect(second.body).toEqual({ named: "prefer", partner: "forbid" });
    const third = await update({ apiKey, body: { named: "discourage" } });
    expect(third.body).toEqual({ named: "discourage", partner: "forbid" });
    expect(await storedFlags(account.id)).toEqual({ named: "discourage", partner: "forbid" });
  });

  it("200 by employee session, with no TOTP code; the audit record is feature_flags.update", async () => {
    const { session, account, employee } = await signedInEmployee();
    const response = await update({ session, body: { named: "require" } });
    expect(response.status).toBe(200);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "feature_flags.update", actorId: employee.id },
    });
    expect(event).toMatchObject({ platformId: account.id, targetId: account.id, status: 200, outcome: "success" });
  });

  it("200 with Service-Account-Id: changes the sub-account only", async () => {
    const { apiKey, account, subAccountId } = await platformWithSubAccount();
    const response = await update({
      apiKey,
      headers: { "service-account-id": subAccountId },
      body: { partner: "prefer" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ partner: "prefer" });
    expect(await storedFlags(subAccountId)).toEqual({ partner: "prefer" });
    expect(await storedFlags(account.id)).toEqual({});
  });

  it("404 for a Service-Account-Id of another platform, which stays unchanged", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithSubAccount();
    for (const id of [theirs.account.id, theirs.subAccountId]) {
      const response = await update({
        apiKey: mine.apiKey,
        headers: { "service-account-id": id },
        body: { named: "forbid" },
      });
      expect(response.status).toBe(404);
      expect(await storedFlags(id)).toEqual({});
    }
  });

  it("422 naming each unknown flag and bad value", async () => {
    const { apiKey, account } = await platformWithKey();
    const unknown = await update({ apiKey, body: { foo: "prefer" } });
    expectError(unknown, 422, "err_validation");
    expect(Object.keys(unknown.body.details ?? {})).toEqual(["foo"]);
    const bad = await update({ apiKey, body: { named: "PREFER", partner: 1, foo: "x" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details ?? {}).sort()).toEqual(["foo", "named", "partner"]);
    expect(await storedFlags(account.id)).toEqual({});
  });
});
