import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as listKeys } from "@/app/v1/api_keys/route";
import { POST as createEndpoint } from "@/app/v1/webhook_endpoints/route";
import { newApiKeySecret } from "@/lib/auth/api-key-secret";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { lastAuditEvent } from "@/lib/testing/audit";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { apiKeyFor, inDays, platformWithKey } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { POST } from "./route";

const pair = () => generateKeyPairSync("ec", { namedCurve: "P-256" });
const github = pair();
const other = pair();
const pem = (key: KeyObject) => key.export({ type: "spki", format: "pem" }) as string;
const identifierOf = (key: KeyObject) =>
  createHash("sha256")
    .update(key.export({ type: "spki", format: "der" }))
    .digest("hex");

unsetEnvAfterEach("SECRET_SCANNING_PUBLIC_KEYS");
beforeEach(() => {
  // GitHub's own JSON, as https://api.github.com/meta/public_keys/secret_scanning answers it.
  process.env.SECRET_SCANNING_PUBLIC_KEYS = JSON.stringify({
    public_keys: [{ key_identifier: "gh-key-1", key: pem(github.publicKey), is_current: true }],
  });
  resetEnv();
});

type Reported = { token: string; type?: string; url?: string; source?: string };
const URL_FOUND = "https://github.com/someone/app/blob/abc123/.env";
const entry = ({ token, type = "service_api_key", url = URL_FOUND, source = "content" }: Reported) => ({
  token,
  type,
  url,
  source,
});

/** Posts `body` (bytes as given) signed by `signer` under `identifier`. */
function report(body: string, { signer = github.privateKey, identifier = "gh-key-1" } = {}) {
  const signature = sign("sha256", Buffer.from(body), { key: signer, dsaEncoding: "der" }).toString("base64");
  return call(POST, {
    method: "POST",
    path: "/v1/secret_scanning/reports",
    rawBody: body,
    headers: { "github-public-key-identifier": identifier, "github-public-key-signature": signature },
  });
}
const reportTokens = (tokens: Reported[], options?: Parameters<typeof report>[1]) =>
  report(JSON.stringify(tokens.map(entry)), options);

const keyWorks = async (secret: string) => (await call(listKeys, { apiKey: secret })).status === 200;

async function listeningPlatform() {
  const platform = await platformWithKey();
  const hook = await call(createEndpoint, {
    method: "POST",
    apiKey: platform.apiKey,
    body: { url: "https://platform.example.com/hooks", events: ["api_key.leaked"] },
  });
  expect(hook.status).toBe(201);
  return { ...platform, endpointId: hook.body.id };
}

describe("POST /v1/secret_scanning/reports", () => {
  it("a live key reported: revoked at once, audited without the token, announced with url and source", async () => {
    const { account, endpointId } = await listeningPlatform();
    const leaked = await apiKeyFor(account.id, { name: "CI" });
    expect(await keyWorks(leaked.secret)).toBe(true);
    const answer = await reportTokens([{ token: leaked.secret, source: "commit" }]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ token_raw: leaked.secret, token_type: "service_api_key", label: "true_positive" }]);
    // The very next request with it: refused as any revoked key is.
    expectError(await call(listKeys, { apiKey: leaked.secret }), 401, "err_unauthenticated");
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: leaked.id } });
    expect(row).toMatchObject({ leakUrl: URL_FOUND, leakSource: "commit" });
    expect(row.revokedAt).toEqual(row.leakedAt);
    const audit = await lastAuditEvent({ action: "api_key.leaked", targetId: leaked.id });
    expect(audit).toMatchObject({ accountId: null, platformId: account.platformId, actedForAccountId: account.id });
    expect(typeof audit.details === "string" ? JSON.parse(audit.details) : audit.details).toEqual({
      url: URL_FOUND,
      source: "commit",
      type: "service_api_key",
    });
    const records = await db().auditEvent.findMany({ where: { requestId: audit.requestId } });
    expect(JSON.stringify(records)).not.toContain(leaked.secret);
    const events = await db().webhookDelivery.findMany({ where: { webhookEndpointId: endpointId } });
    expect(events.map((event) => event.eventType)).toEqual(["api_key.leaked"]);
    const data = typeof events[0]!.eventData === "string" ? JSON.parse(events[0]!.eventData) : events[0]!.eventData;
    expect(data).toMatchObject({ id: leaked.id, name: "CI", leak: { url: URL_FOUND, source: "commit" } });
    expect(JSON.stringify(data)).not.toContain(leaked.secret);
  });

  it("the key's representation says why it was revoked", async () => {
    const { account, apiKey } = await platformWithKey();
    const leaked = await apiKeyFor(account.id);
    await reportTokens([{ token: leaked.secret }]);
    const listed = await call(listKeys, { apiKey });
    const shown = listed.body.find((key) => key.id === leaked.id)!;
    expect(shown.revokedAt).not.toBeNull();
    expect(shown.leak).toEqual({ url: URL_FOUND, source: "content", reportedAt: shown.revokedAt });
    expect(listed.body.find((key) => key.id !== leaked.id)!.leak).toBeNull();
  });

  it("replayed: the same report again answers true_positive and changes nothing; another url answers false", async () => {
    const { account, endpointId } = await listeningPlatform();
    const leaked = await apiKeyFor(account.id);
    const body = JSON.stringify([entry({ token: leaked.secret })]);
    expect((await report(body)).body).toMatchObject([{ label: "true_positive" }]);
    const before = await db().apiKey.findUniqueOrThrow({ where: { id: leaked.id } });
    expect((await report(body)).body).toMatchObject([{ label: "true_positive" }]);
    expect(await db().apiKey.findUniqueOrThrow({ where: { id: leaked.id } })).toEqual(before);
    expect(await db().auditEvent.count({ where: { action: "api_key.leaked", targetId: leaked.id } })).toBe(1);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpointId } })).toBe(1);
    const elsewhere = await reportTokens([{ token: leaked.secret, url: "https://gist.github.com/x/1" }]);
    expect(elsewhere.body).toMatchObject([{ label: "false_positive" }]);
  });

  it("the same report twice at once: both true_positive, one revocation, one audit record, one event", async () => {
    const { account, endpointId } = await listeningPlatform();
    const leaked = await apiKeyFor(account.id);
    const body = JSON.stringify([entry({ token: leaked.secret })]);
    const answers = await Promise.all([report(body), report(body)]);
    expect(answers.map((answer) => [answer.status, answer.body[0]?.label])).toEqual([
      [200, "true_positive"],
      [200, "true_positive"],
    ]);
    expect(await db().auditEvent.count({ where: { action: "api_key.leaked", targetId: leaked.id } })).toBe(1);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpointId } })).toBe(1);
  });

  it("another platform's token, unknown, revoked by staff or expired keys: false_positive, nothing changes", async () => {
    const { account } = await platformWithKey();
    const revoked = await apiKeyFor(account.id);
    await db().apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    const expired = await apiKeyFor(account.id);
    await db().apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const tokens = [
      "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
      newApiKeySecret().secret,
      "svc_" + "A".repeat(36),
      revoked.secret,
      expired.secret,
    ];
    const before = await db().apiKey.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    const answer = await reportTokens(tokens.map((token) => ({ token })));
    expect(answer.status).toBe(200);
    expect(answer.body.map((each) => each.label)).toEqual(tokens.map(() => "false_positive"));
    expect(answer.body.map((each) => each.token_raw)).toEqual(tokens);
    expect(await db().apiKey.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("several tokens in one report: labels in order, each live key revoked", async () => {
    const { account } = await platformWithKey();
    const first = await apiKeyFor(account.id);
    const second = await apiKeyFor(account.id, { expiresAt: inDays(90) });
    const tokens = [first.secret, "not-a-key", second.secret, first.secret];
    const answer = await reportTokens(tokens.map((token) => ({ token, type: "svc" })));
    expect(answer.body).toEqual([
      { token_raw: first.secret, token_type: "svc", label: "true_positive" },
      { token_raw: "not-a-key", token_type: "svc", label: "false_positive" },
      { token_raw: second.secret, token_type: "svc", label: "true_positive" },
      { token_raw: first.secret, token_type: "svc", label: "true_positive" },
    ]);
    expect(await keyWorks(first.secret)).toBe(false);
    expect(await keyWorks(second.secret)).toBe(false);
  });

  it("unsigned, badly signed or signed by an unknown key: 401, and nothing is revoked", async () => {
    const { account } = await platformWithKey();
    const leaked = await apiKeyFor(account.id);
    const body = JSON.stringify([entry({ token: leaked.secret })]);
    const unsigned = await call(POST, { method: "POST", rawBody: body });
    expectError(unsigned, 401, "err_unauthenticated");
    expectError(await report(body, { signer: other.privateKey }), 401, "err_unauthenticated");
    expectError(await report(body, { identifier: "gh-key-2" }), 401, "err_unauthenticated");
    const tampered = await call(POST, {
      method: "POST",
      rawBody: body.replace("content", "commit"),
      headers: {
        "github-public-key-identifier": "gh-key-1",
        "github-public-key-signature": sign("sha256", Buffer.from(body), {
          key: github.privateKey,
          dsaEncoding: "der",
        }).toString("base64"),
      },
    });
    expectError(tampered, 401, "err_unauthenticated");
    expectError(await report(body, { identifier: "" }), 401, "err_unauthenticated");
    expect(await keyWorks(leaked.secret)).toBe(true);
  });

  it("malformed or oversized reports, signed: 400", async () => {
    for (const body of [
      "",
      "{",
      "{}",
      "[]",
      '"x"',
      '[{"token":"a"}]',
      '[{"token":1,"type":"t","url":"u","source":"s"}]',
    ]) {
      expectError(await report(body), 400, "err_bad_request");
    }
    const many = Array.from({ length: 1001 }, () => entry({ token: "x" }));
    expectError(await reportTokens(many.map(({ token }) => ({ token }))), 400, "err_bad_request");
    const huge = await report(JSON.stringify([entry({ token: "x", url: "u".repeat(1024 * 1024) })]));
    expectError(huge, 400, "err_bad_request");
    expect(huge.body.message).toMatch(/1 MiB/);
  });

  it("any signed body answers 200 or 400, any unsigned one 401: never a 500, never a revocation", async () => {
    const { account } = await platformWithKey();
    const live = await apiKeyFor(account.id);
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value) ?? ""),
      fc
        .array(fc.record({ token: fc.string(), type: fc.string(), url: fc.string(), source: fc.string() }))
        .map((list) => JSON.stringify(list)),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.string(), async (text, junkSignature) => {
        expect([200, 400]).toContain((await report(text)).status);
        const unsigned = await call(POST, {
          method: "POST",
          rawBody: text,
          headers: { "github-public-key-identifier": "gh-key-1", "github-public-key-signature": junkSignature },
        });
        expect(unsigned.status).toBe(401);
      }),
      { numRuns: 40 },
    );
    expect(await keyWorks(live.secret)).toBe(true);
  });

  it("PEM blocks as the setting: each key known by the SHA-256 of its DER encoding", async () => {
    process.env.SECRET_SCANNING_PUBLIC_KEYS = pem(other.publicKey) + pem(github.publicKey);
    resetEnv();
    const { account } = await platformWithKey();
    const leaked = await apiKeyFor(account.id);
    const answer = await reportTokens([{ token: leaked.secret }], { identifier: identifierOf(github.publicKey) });
    expect(answer.body).toMatchObject([{ label: "true_positive" }]);
    expectError(await reportTokens([{ token: "x" }]), 401, "err_unauthenticated");
  });

  it("404 while SECRET_SCANNING_PUBLIC_KEYS is unset", async () => {
    delete process.env.SECRET_SCANNING_PUBLIC_KEYS;
    resetEnv();
    expectError(await reportTokens([{ token: "x" }]), 404, "err_not_found");
  });
});
