import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as listEventTypes } from "@/app/v1/webhook_endpoints/events/route";
import { decryptSecret } from "@/lib/auth/encryption";
import { db } from "@/lib/db";
import { apiKeyFor, nextMillisecond, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { EVENT_TYPES, EVENT_TYPE_NAMES } from "@/lib/webhooks/event-types";
import { GET, POST } from "./route";

const create = (options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", path: "/v1/webhook_endpoints", ...options });
const body = (extra: Record<string, unknown> = {}) => ({
  url: "https://hooks.example.com/in",
  events: ["transfer.created", "recipient.deleted"],
  ...extra,
});

describe("GET /v1/webhook_endpoints/events", () => {
  it("200: every event type with its description; 403 without webhooks:read", async () => {
    const { account, apiKey } = await platformWithKey();
    const response = await call(listEventTypes, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type] })));
    const without = await apiKeyFor(account.id, { permissions: ["transactions:read"] });
    const refused = await call(listEventTypes, { apiKey: without.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ permission: "webhooks:read" });
  });
});

describe("POST /v1/webhook_endpoints", () => {
  it("201: the endpoint with its own Ed25519 public key; the private key is stored encrypted and matches it", async () => {
    const { account, apiKey, key } = await platformWithKey();
    const response = await create({ apiKey, body: body({ description: "Payouts" }) });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^we_[a-z0-9]{20}$/),
      ownerId: account.id,
      description: "Payouts",
      url: "https://hooks.example.com/in",
      subscribedEvents: ["transfer.created", "recipient.deleted"],
      publicKey: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
      enabled: true,
      createdAt: expect.any(String),
      createdBy: { type: "api_key", id: key.id },
    });
    expect(createPublicKey(response.body.publicKey).asymmetricKeyType).toBe("ed25519");
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row.privateKey).not.toMatch(/PRIVATE KEY/);
    const privateKey = createPrivateKey(decryptSecret(row.privateKey, row.id));
    const signature = sign(null, Buffer.from("hello"), privateKey);
    expect(verify(null, Buffer.from("hello"), response.body.publicKey, signature)).toBe(true);
    // A second endpoint gets a key pair of its own.
    const second = await create({ apiKey, body: body() });
    expect(second.body.publicKey).not.toBe(response.body.publicKey);
  });

  it("records who created it, as keys do: the signed-in employee or the key; null for endpoints made before", async () => {
    const owner = await signedInEmployee({ totp: true });
    const bySession = await create({ session: owner.session, totp: owner.authenticator!.nextCode(), body: body() });
    expect(bySession.status).toBe(201);
    expect(bySession.body.createdBy).toEqual({ type: "employee", id: owner.employee.id });
    await db().webhookEndpoint.update({
      where: { id: bySession.body.id },
      data: { createdByType: null, createdById: null },
    });
    const listed = await call(GET, { session: owner.session });
    expect(listed.body).toEqual([expect.objectContaining({ id: bySession.body.id, createdBy: null })]);
  });

  it("the private key appears in no response, list included", async () => {
    const { apiKey } = await platformWithKey();
    const created = await create({ apiKey, body: body() });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.id } });
    const listed = await call(GET, { apiKey });
    for (const text of [JSON.stringify(created.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain("PRIVATE KEY");
      expect(text).not.toContain(row.privateKey);
      expect(text).not.toContain("privateKey");
    }
  });

  it("de-duplicates events and turns an empty description into null; enabled: false is kept", async () => {
    const { apiKey } = await platformWithKey();
    const response = await create({
      apiKey,
      body: body({ events: ["transfer.created", "transfer.created"], description: "  ", enabled: false }),
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ subscribedEvents: ["transfer.created"], description: null, enabled: false });
  });

  it.each([
    ["http to a public host", { url: "http://hooks.example.com/in" }, "url"],
    ["http to a private address", { url: "http://10.0.0.1/in" }, "url"],
    ["a user name in the URL", { url: "https://me:pw@hooks.example.com/" }, "url"],
    ["the metadata address", { url: "https://169.254.169.254/latest" }, "url"],
    ["loopback as IPv4-compatible IPv6 (even with WEBHOOK_ALLOW_PRIVATE)", { url: "https://[::127.0.0.1]/in" }, "url"],
    ["the metadata address as IPv4-compatible IPv6", { url: "https://[::a9fe:a9fe]/latest" }, "url"],
    ["not a URL", { url: "hooks" }, "url"],
    ["an unknown event", { events: ["transfer.created", "transfer.exploded"] }, "events.1"],
    ["no events", { events: [] }, "events"],
    ["a description too long", { description: "x".repeat(501) }, "description"],
  ])("422 for %s, naming the field", async (_, change, field) => {
    const { account, apiKey } = await platformWithKey();
    const response = await create({ apiKey, body: { ...body(), ...change } });
    expectError(response, 422, "err_validation");
    expect(Object.keys(response.body.details ?? {})).toEqual([field]);
    expect(await db().webhookEndpoint.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("refuses private and loopback URLs when WEBHOOK_ALLOW_PRIVATE is off (the tests run with it on)", async () => {
    const { apiKey } = await platformWithKey();
    expect((await create({ apiKey, body: body({ url: "http://127.0.0.1:9/in" }) })).status).toBe(201);
    const { resetEnv } = await import("@/lib/env");
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    resetEnv();
    try {
      const refused = await create({ apiKey, body: body({ url: "http://127.0.0.1:9/in" }) });
      expect(refused.status).toBe(422);
      expect(refused.body.details?.url).toMatch(/https/);
      expect((await create({ apiKey, body: body({ url: "https://127.0.0.1/in" }) })).body.details?.url).toMatch(
        /loopback/,
      );
      expect((await create({ apiKey, body: body({ url: "https://10.0.0.1/in" }) })).body.details?.url).toMatch(
        /private/,
      );
      expect((await create({ apiKey, body: body({ url: "https://[fd00:ec2::254]/" }) })).body.details?.url).toMatch(
        /metadata/,
      );
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
      resetEnv();
    }
  });

  it("403 without webhooks:write, nothing created", async () => {
    const { account } = await platformWithKey();
    const reader = await apiKeyFor(account.id, { permissions: ["webhooks:read"] });
    const response = await create({ apiKey: reader.secret, body: body() });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ permission: "webhooks:write" });
    expect(await db().webhookEndpoint.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("from a session: 400 err_otp_required without a code, 201 with one; a role without webhooks:write gets 403", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true });
    const noCode = await create({ session, body: body() });
    expectError(noCode, 400, "err_otp_required");
    expect(await db().webhookEndpoint.count({ where: { accountId: account.id } })).toBe(0);
    expect((await create({ session, totp: authenticator!.nextCode(), body: body() })).status).toBe(201);
    const compliance = await signedInEmployee({ totp: true, role: "compliance", platform: account });
    const refused = await create({
      session: compliance.session,
      totp: compliance.authenticator!.nextCode(),
      body: body(),
    });
    expect(refused.status).toBe(403);
  });

  it("409 past 20 endpoints per account; deleted ones do not count", async () => {
    const { account, apiKey } = await platformWithKey();
    for (let i = 0; i < 20; i += 1) expect((await create({ apiKey, body: body() })).status).toBe(201);
    expect((await create({ apiKey, body: body() })).status).toBe(409);
    const one = await db().webhookEndpoint.findFirstOrThrow({ where: { accountId: account.id } });
    await db().webhookEndpoint.update({ where: { id: one.id }, data: { deletedAt: new Date() } });
    expect((await create({ apiKey, body: body() })).status).toBe(201);
  });
});

describe("GET /v1/webhook_endpoints", () => {
  it("200: the account's endpoints oldest first, without deleted ones or another platform's", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const first = await create({ apiKey, body: body() });
    await nextMillisecond();
    const second = await create({ apiKey, body: body({ url: "https://two.example.com/" }) });
    const deleted = await create({ apiKey, body: body() });
    await db().webhookEndpoint.update({ where: { id: deleted.body.id }, data: { deletedAt: new Date() } });
    await create({ apiKey: other.apiKey, body: body() });
    const response = await call(GET, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([first.body, second.body]);
  });
});
