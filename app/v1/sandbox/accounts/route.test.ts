import { describe, expect, it } from "vitest";
import { GET as listAccounts } from "@/app/v1/accounts/route";
import { db } from "@/lib/db";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectCreated } from "@/lib/testing/http";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });

describe("POST /v1/sandbox/accounts", () => {
  it("201: an account under the caller's account, in the caller's platform", async () => {
    const { account, apiKey } = await platformWithKey();
    const response = await create({ apiKey, body: { name: " Merchant " } });
    expectCreated(response, /^acct_[a-z0-9]{20}$/, { name: "Merchant", parentId: account.id, featureFlags: {} });
    expect((await db().account.findUniqueOrThrow({ where: { id: response.body.id } })).platformId).toBe(account.id);
    // The platform and its new sub-account can share a millisecond (the list then falls back to the random ids): the platform is made older.
    await db().account.update({ where: { id: account.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const listed = await call(listAccounts, { apiKey });
    expect(listed.body.map((item) => item.id)).toEqual([account.id, response.body.id]);
  });

  it("201 with Service-Account-Id: the new account's parent is that sub-account", async () => {
    const { account, apiKey } = await platformWithKey();
    const { body: sub } = await create({ apiKey, body: { name: "Sub" } });
    const response = await create({ apiKey, headers: { "service-account-id": sub.id }, body: { name: "Grandchild" } });
    expect(response.status).toBe(201);
    expect(response.body.parentId).toBe(sub.id);
    expect((await db().account.findUniqueOrThrow({ where: { id: response.body.id } })).platformId).toBe(account.id);
  });

  it("201 by employee session, with no TOTP code; audited as sandbox.create_account", async () => {
    const { session, account } = await signedInEmployee({ totp: true });
    const response = await create({ session, body: { name: "Dashboard sub" } });
    expect(response.status).toBe(201);
    expect(response.body.parentId).toBe(account.id);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "sandbox.create_account", targetId: response.body.id },
    });
    expect(event).toMatchObject({ platformId: account.id, status: 201 });
  });

  it("404 for a Service-Account-Id of another platform; nothing is created there", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const response = await create({
      apiKey: mine.apiKey,
      headers: { "service-account-id": theirs.account.id },
      body: { name: "Intruder" },
    });
    expect(response.status).toBe(404);
    expect(await db().account.count({ where: { platformId: theirs.account.id } })).toBe(1);
  });

  it("422 naming name when missing, empty or too long", async () => {
    const { apiKey } = await platformWithKey();
    for (const body of [{}, { name: "" }, { name: "x".repeat(201) }, { name: ["a"] }]) {
      const response = await create({ apiKey, body });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["name"]);
    }
  });
});
