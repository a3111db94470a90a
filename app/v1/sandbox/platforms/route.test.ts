import { describe, expect, it } from "vitest";
import { GET as listAccounts } from "@/app/v1/accounts/route";
import { POST as updateAccount } from "@/app/v1/accounts/[accountId]/route";
import { GET as listKeys } from "@/app/v1/api_keys/route";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });
const DAY = 86_400_000;

describe("POST /v1/sandbox/platforms", () => {
  unsetEnvAfterEach("SANDBOX");

  it("201: a new platform's account and a working key of it, secret shown once, expiring in 90 days", async () => {
    const { apiKey } = await platformWithKey();
    const response = await create({ apiKey, body: { accountName: "  Other Co  " } });
    expect(response.status).toBe(201);
    const { account, apiKey: key } = response.body;
    expect(account).toEqual({
      id: expect.stringMatching(/^acct_[a-z0-9]{20}$/),
      name: "Other Co",
      parentId: null,
      featureFlags: {},
      createdAt: expect.any(String),
    });
    expect(key).toMatchObject({
      id: expect.stringMatching(/^key_/),
      secret: expect.stringMatching(/^svc_/),
      cidrAllowlist: [],
      revokedAt: null,
    });
    expect(key.prefix).toBe(key.secret.slice(0, 12));
    expect(Math.abs(new Date(key.expiresAt).getTime() - (Date.now() + 90 * DAY))).toBeLessThan(60_000);
    const row = await db().account.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.platformId).toBe(account.id);
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.accountId).toBe(account.id);
    expect(JSON.stringify(stored)).not.toContain(key.secret);
    const keys = await call(listKeys, { apiKey: key.secret });
    expect(keys.status).toBe(200);
    expect(keys.body.map((item) => item.id)).toEqual([key.id]);
  });

  it("the new platform and the caller cannot see each other", async () => {
    const caller = await platformWithKey();
    const { body } = await create({ apiKey: caller.apiKey, body: { accountName: "Isolated" } });
    const theirs = await call(listAccounts, { apiKey: body.apiKey.secret });
    expect(theirs.body.map((item) => item.id)).toEqual([body.account.id]);
    const mine = await call(listAccounts, { apiKey: caller.apiKey });
    expect(mine.body.map((item) => item.id)).toEqual([caller.account.id]);
    const across = await call(updateAccount, {
      method: "POST",
      apiKey: body.apiKey.secret,
      params: { accountId: caller.account.id },
      body: { featureFlags: { named: "forbid" } },
    });
    expect(across.status).toBe(404);
  });

  it("201 by employee session, with no TOTP code; audited as sandbox.create_platform", async () => {
    const { session, employee } = await signedInEmployee({ totp: true });
    const response = await create({ session, body: { accountName: "From the dashboard" } });
    expect(response.status).toBe(201);
    const event = await db().auditEvent.findFirstOrThrow({
      where: { action: "sandbox.create_platform", actorId: employee.id },
    });
    expect(event).toMatchObject({ targetId: response.body.account.id, status: 201 });
    expect(event.details ?? "").not.toContain(response.body.apiKey.secret);
  });

  it("422 naming accountName when missing, empty or not a string", async () => {
    const { apiKey } = await platformWithKey();
    for (const body of [{}, { accountName: "   " }, { accountName: 42 }, { accountName: "x".repeat(201) }]) {
      const response = await create({ apiKey, body });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["accountName"]);
    }
  });

  it("404 like an unknown route when SANDBOX=off", async () => {
    const { apiKey } = await platformWithKey();
    process.env.SANDBOX = "off";
    resetEnv();
    const before = await db().account.count();
    const response = await create({ apiKey, path: "/v1/sandbox/platforms", body: { accountName: "Off" } });
    expectError(response, 404, "err_not_found");
    expect(await db().account.count()).toBe(before);
  });
});
