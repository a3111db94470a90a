import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as updateKey } from "@/app/v1/api_keys/[key]/route";
import { POST as updateSettings } from "@/app/v1/settings/route";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, type Answer } from "@/lib/testing/http";
import { GET, POST } from "./route";

// Rate limits per key (docs/api.md, Rate limits). Only Date is faked: every
// request then falls in a window the test chose, whatever the clock says, and the count is the
// process's own (no REDIS_URL), which is exact.

const WINDOW_MS = 60_000;
/** Ten seconds into a fresh minute: a 60 s window has 50 s left. */
let windowStart = 0;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  windowStart = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  vi.setSystemTime(windowStart + 10_000);
});
afterEach(() => void vi.useRealTimers());

const fields = (answer: Answer<unknown>) => ({
  policy: answer.headers.get("ratelimit-policy"),
  limit: answer.headers.get("ratelimit"),
  retryAfter: answer.headers.get("retry-after"),
});

describe("a key's own rate limit", () => {
  it("every answer names the policy and what is left; request limit+1 of a window answers 429 with Retry-After", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id, { rateLimit: { requests: 3, perSeconds: 60 } });
    for (const remaining of [2, 1, 0]) {
      const answer = await call(GET, { apiKey: key.secret });
      expect(answer.status).toBe(200);
      expect(fields(answer)).toEqual({
        policy: '"key";q=3;w=60',
        limit: `"key";r=${remaining};t=50`,
        retryAfter: null,
      });
    }
    const refused = await call(GET, { apiKey: key.secret });
    expectError(refused, 429, "err_rate_limited");
    expect(refused.body).toMatchObject({ http_code: 429, message: expect.stringContaining("3 requests per 60 s") });
    expect(fields(refused)).toEqual({ policy: '"key";q=3;w=60', limit: '"key";r=0;t=50', retryAfter: "50" });
    vi.setSystemTime(windowStart + WINDOW_MS - 1);
    expect(fields(await call(GET, { apiKey: key.secret })).retryAfter).toBe("1");
    vi.setSystemTime(windowStart + WINDOW_MS);
    const next = await call(GET, { apiKey: key.secret });
    expect(next.status).toBe(200);
    expect(fields(next).limit).toBe('"key";r=2;t=60');
  });

  it("error answers to a known key carry the fields too; a session's answers carry none", async () => {
    const { account, session } = await signedInEmployee();
    const key = await apiKeyFor(account.id, { rateLimit: { requests: 10, perSeconds: 60 } });
    const notFound = await call(updateKey, {
      method: "POST",
      apiKey: key.secret,
      params: { key: "key_doesnotexist" },
      body: { cidrAllowlist: [] },
    });
    expectError(notFound, 404, "err_not_found");
    expect(fields(notFound)).toMatchObject({ policy: '"key";q=10;w=60', limit: '"key";r=9;t=50' });
    const forbidden = await call(updateSettings, { method: "POST", apiKey: key.secret, body: {} });
    expectError(forbidden, 403, "err_forbidden");
    expect(fields(forbidden).limit).toBe('"key";r=8;t=50');
    const bySession = await call(GET, { session });
    expect(bySession.status).toBe(200);
    expect(fields(bySession)).toEqual({ policy: null, limit: null, retryAfter: null });
  });

  it("set on creation and by update, shown with the key; null returns it to the platform's default", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const issued = await call(POST, {
      method: "POST",
      apiKey: admin.secret,
      body: { expiresAt: inDays(30), rateLimit: { requests: 500, perSeconds: 10 } },
    });
    expect(issued.status).toBe(201);
    expect(issued.body.rateLimit).toEqual({ requests: 500, perSeconds: 10 });
    const params = { key: issued.body.id };
    const changed = await call(updateKey, { method: "POST", apiKey: admin.secret, params, body: { rateLimit: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.rateLimit).toBeNull();
    expect(fields(await call(GET, { apiKey: issued.body.secret })).policy).toBe('"key";q=100;w=1');
  });

  it("422 naming the field for a malformed or out-of-range rateLimit, on creation and on update", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const cases: [unknown, string][] = [
      [{ requests: 0, perSeconds: 1 }, "rateLimit.requests"],
      [{ requests: 100_001, perSeconds: 1 }, "rateLimit.requests"],
      [{ requests: 1.5, perSeconds: 1 }, "rateLimit.requests"],
      [{ requests: "10", perSeconds: 1 }, "rateLimit.requests"],
      [{ requests: 10, perSeconds: 3601 }, "rateLimit.perSeconds"],
      [{ requests: 10 }, "rateLimit.perSeconds"],
      [{ requests: 10, perSeconds: 1, burst: 5 }, "rateLimit"],
      ["100/s", "rateLimit"],
    ];
    for (const [rateLimit, field] of cases) {
      const body = { expiresAt: inDays(30), rateLimit };
      const issued = await call(POST, { method: "POST", apiKey: admin.secret, body });
      expect(issued.status, JSON.stringify(rateLimit)).toBe(422);
      expect(Object.keys(issued.body.details ?? {}), JSON.stringify(rateLimit)).toEqual([field]);
      const params = { key: admin.id };
      const updated = await call(updateKey, { method: "POST", apiKey: admin.secret, params, body: { rateLimit } });
      expect(updated.status, JSON.stringify(rateLimit)).toBe(422);
      expect(Object.keys(updated.body.details ?? {}), JSON.stringify(rateLimit)).toEqual([field]);
    }
  });
});

describe("the platform's defaultKeyRateLimit", () => {
  it("applies to every key without its own limit, at once; the key's own wins", async () => {
    const owner = await signedInEmployee({ totp: true });
    const plain = await apiKeyFor(owner.account.id);
    const own = await apiKeyFor(owner.account.id, { rateLimit: { requests: 50, perSeconds: 60 } });
    expect(fields(await call(GET, { apiKey: plain.secret })).policy).toBe('"key";q=100;w=1');
    const saved = await call(updateSettings, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { defaultKeyRateLimit: { requests: 2, perSeconds: 60 } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.defaultKeyRateLimit).toEqual({ requests: 2, perSeconds: 60 });
    expect(fields(await call(GET, { apiKey: plain.secret }))).toMatchObject({ policy: '"key";q=2;w=60' });
    expect((await call(GET, { apiKey: plain.secret })).status).toBe(200);
    expectError(await call(GET, { apiKey: plain.secret }), 429, "err_rate_limited");
    expect(fields(await call(GET, { apiKey: own.secret })).policy).toBe('"key";q=50;w=60');
  });

  it("422 for a malformed setting; like every setting, a key may not change it", async () => {
    const owner = await signedInEmployee({ totp: true });
    const cases: [unknown, string][] = [
      [{ requests: 0, perSeconds: 1 }, "defaultKeyRateLimit.requests"],
      [{ requests: 10, perSeconds: 0 }, "defaultKeyRateLimit.perSeconds"],
      [null, "defaultKeyRateLimit"],
      [100, "defaultKeyRateLimit"],
    ];
    for (const [defaultKeyRateLimit, field] of cases) {
      const answer = await call(updateSettings, {
        method: "POST",
        session: owner.session,
        totp: owner.authenticator!.nextCode(),
        body: { defaultKeyRateLimit },
      });
      expect(answer.status, JSON.stringify(defaultKeyRateLimit)).toBe(422);
      expect(Object.keys(answer.body.details ?? {}), JSON.stringify(defaultKeyRateLimit)).toEqual([field]);
    }
  });
});
