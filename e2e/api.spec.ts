// Black-box journey through the /v1 API against the real production server (server.mjs behind
// scripts/start.mjs, started by playwright.config.ts with a fresh database). No browser: every call
// goes through Playwright's APIRequestContext, with cookies and headers set explicitly per request.
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { generateSync } from "otplib";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type CallOptions = {
  /** Sent as `Cookie: pmc_session=...`. */
  session?: string;
  /** Sent as `Authorization: Bearer ...`. */
  bearer?: string;
  /** Sent as `Origin`. */
  origin?: string;
  /** Serialised as JSON with Content-Type: application/json. */
  json?: unknown;
  headers?: Record<string, string>;
};

type ErrorBody = { error_code: string; http_code: number; message: string; details?: Record<string, string> };
type ApiKey = {
  id: string;
  name: string | null;
  prefix: string;
  expiresAt: string;
  cidrAllowlist: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};
type IssuedKey = ApiKey & { secret: string };

const owner = {
  // The webServer's SETUP_TOKEN (playwright.config.ts).
  setupToken: process.env.E2E_SETUP_TOKEN!,
  accountName: "E2E Platform",
  name: "Erin Example",
  email: `erin+${Date.now()}@example.com`,
  password: "correct horse battery staple",
};

// State carried along the journey (the describe block is serial).
let appOrigin = "";
let sessionToken = "";
let totpSecret = "";
let recoveryCodes: string[] = [];
let confirmationCode = "";
/** The newest TOTP time step the server has accepted (and so spent) for the owner. */
let lastSpentStep = 0;
let firstKey: IssuedKey;
let secondKey: IssuedKey;

const STEP_SECONDS = 30;
const stepAt = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS);
const codeForStep = (step: number) => generateSync({ secret: totpSecret, epoch: step * STEP_SECONDS });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const days = (n: number) => n * 24 * 3_600_000;

/**
 * A code for the oldest time step the server has not yet spent and will accept (±1 step). The next
 * step's code is used when it is fresh; when even that is spent, waits for the real step boundary.
 */
async function freshTotpCode(): Promise<string> {
  const now = Date.now();
  const current = stepAt(now);
  const step = Math.max(lastSpentStep + 1, current);
  if (step > current + 1) {
    const boundary = (step - 1) * STEP_SECONDS * 1000;
    await sleep(boundary - now + 250);
  }
  lastSpentStep = step;
  return codeForStep(step);
}

/** A well-formed code that matches none of the steps the server could accept around now. */
function wrongTotpCode(): string {
  const current = stepAt(Date.now());
  const valid = new Set([-1, 0, 1, 2].map((offset) => codeForStep(current + offset)));
  const wrong = ["000000", "111111", "222222", "333333", "444444", "555555"].find((code) => !valid.has(code));
  if (!wrong) throw new Error("no wrong code found");
  return wrong;
}

async function call(
  request: APIRequestContext,
  method: Method,
  path: string,
  options: CallOptions = {},
): Promise<APIResponse> {
  // Each request states its own credentials: nothing is carried over in the context's cookie jar.
  await request.clearCookies();
  const headers: Record<string, string> = { ...options.headers };
  if (options.session) headers.Cookie = `pmc_session=${options.session}`;
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  if (options.origin) headers.Origin = options.origin;
  return request.fetch(path, {
    method,
    headers,
    ...(options.json !== undefined ? { data: options.json } : {}),
    maxRedirects: 0,
  });
}

/** Asserts the contract's error body and returns it. */
async function expectError(response: APIResponse, status: number, errorCode: string): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status(), `${response.url()} answered ${text}`).toBe(status);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(response.headers()["x-request-id"]).toBeTruthy();
  const body = JSON.parse(text) as ErrorBody;
  expect(body).toEqual(
    expect.objectContaining({ error_code: errorCode, http_code: status, message: expect.any(String) }),
  );
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

async function expectOk<T>(response: APIResponse, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status(), `${response.url()} answered ${text}`).toBe(status);
  expect(response.headers()["x-request-id"]).toBeTruthy();
  return JSON.parse(text) as T;
}

function sessionCookieOf(response: APIResponse): string {
  const setCookies = response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value);
  const cookie = setCookies.find((value) => value.startsWith("pmc_session="));
  expect(cookie, `Set-Cookie: ${setCookies.join(" | ")}`).toBeTruthy();
  return cookie!;
}

function tokenOf(cookie: string): string {
  const token = /^pmc_session=([^;]*)/.exec(cookie)?.[1] ?? "";
  expect(token.length).toBeGreaterThan(20);
  return token;
}

function inFuture(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

test.describe.serial("the /v1 API, end to end", () => {
  test.beforeAll(({ baseURL }) => {
    expect(baseURL).toBeTruthy();
    appOrigin = new URL(baseURL!).origin;
  });

  test("serves its OpenAPI document and request ids", async ({ request }) => {
    const response = await call(request, "GET", "/v1/openapi.json", {
      headers: { "X-Request-Id": "e2e-openapi.1:check" },
    });
    const document = await expectOk<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(response);
    expect(response.headers()["x-request-id"]).toBe("e2e-openapi.1:check");
    expect(document.openapi).toBe("3.1.0");
    for (const path of [
      "/v1/api_keys",
      "/v1/api_keys/{key}",
      "/v1/sessions",
      "/v1/setup",
      "/v1/employees/totp",
      "/v1/employees/totp/confirm",
    ]) {
      expect(document.paths, `paths has ${path}`).toHaveProperty([path]);
    }
    expect(Object.keys(document.paths["/v1/api_keys"]!)).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(document.paths["/v1/api_keys/{key}"]!)).toEqual(expect.arrayContaining(["post", "delete"]));

    // Without an id, or with one that is not sane, the server makes its own.
    const generated = await call(request, "GET", "/v1/openapi.json");
    expect(generated.status()).toBe(200);
    expect(generated.headers()["x-request-id"]).toMatch(/^req_[0-9a-f]+$/);
    const insane = await call(request, "GET", "/v1/openapi.json", {
      headers: { "X-Request-Id": `bad id <script>${"x".repeat(200)}` },
    });
    expect(insane.status()).toBe(200);
    expect(insane.headers()["x-request-id"]).toMatch(/^req_[0-9a-f]+$/);

    // Outside /v1 too.
    const health = await call(request, "GET", "/healthz", { headers: { "X-Request-Id": "e2e-health" } });
    expect(health.status()).toBe(200);
    expect(health.headers()["x-request-id"]).toBe("e2e-health");
  });

  test("answers unknown routes, wrong methods and malformed bodies with the error contract", async ({ request }) => {
    const unknown = await call(request, "GET", "/v1/nope", { headers: { "X-Request-Id": "e2e-nope" } });
    await expectError(unknown, 404, "err_not_found");
    expect(unknown.headers()["x-request-id"]).toBe("e2e-nope");
    await expectError(await call(request, "POST", "/v1/nope/deeper", { json: {} }), 404, "err_not_found");

    const wrongMethod = await call(request, "PUT", "/v1/api_keys", { json: {} });
    await expectError(wrongMethod, 405, "err_method_not_allowed");
    expect(wrongMethod.headers()["allow"]).toContain("GET");
    expect(wrongMethod.headers()["allow"]).toContain("POST");

    const malformed = await request.fetch("/v1/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      data: '{"email": "someone@example.com", "password": ',
    });
    const text = await malformed.text();
    const body = await expectError(malformed, 400, "err_bad_request");
    expect(Object.keys(body).sort()).toEqual(["error_code", "http_code", "message", "request_id"]);
    expect(text).not.toMatch(/SyntaxError|\bat .+:\d+:\d+|node_modules|\.next\/|stack/i);

    const notAnObject = await call(request, "POST", "/v1/sessions", { json: [1, 2, 3] });
    await expectError(notAnObject, 400, "err_bad_request");
  });

  test("sets the platform up once and protects the session cookie against cross-site use", async ({ request }) => {
    await expectError(await call(request, "GET", "/v1/sessions/current"), 401, "err_unauthenticated");

    const weak = await call(request, "POST", "/v1/setup", { json: { ...owner, password: "short" } });
    const weakBody = await expectError(weak, 422, "err_validation");
    expect(weakBody.details).toHaveProperty("password");
    // The common-password list is read by the built server too (node_modules, outside the bundle).
    const common = await call(request, "POST", "/v1/setup", { json: { ...owner, password: "Password1234" } });
    expect((await expectError(common, 422, "err_validation")).details).toEqual({
      password: "is one of the 100,000 most common passwords; choose another",
    });

    const wrongToken = await call(request, "POST", "/v1/setup", {
      json: { ...owner, setupToken: "not-the-setup-token" },
    });
    expect((await expectError(wrongToken, 403, "err_forbidden")).details).toEqual({ setupToken: "is wrong" });

    const setup = await call(request, "POST", "/v1/setup", { json: owner });
    const session = await expectOk<{
      employee: { email: string; twoFactorEnabled: boolean };
      account: { name: string };
      expiresAt: string;
    }>(setup, 201);
    expect(session.employee.email).toBe(owner.email);
    expect(session.employee.twoFactorEnabled).toBe(false);
    expect(session.account.name).toBe(owner.accountName);
    const cookie = sessionCookieOf(setup);
    expect(cookie).toMatch(/;\s*HttpOnly(;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax(;|$)/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    sessionToken = tokenOf(cookie);

    const again = await call(request, "POST", "/v1/setup", { json: { ...owner, email: "someone-else@example.com" } });
    await expectError(again, 409, "err_conflict");

    const me = await expectOk<{ employee: { email: string } }>(
      await call(request, "GET", "/v1/sessions/current", { session: sessionToken }),
    );
    expect(me.employee.email).toBe(owner.email);

    // A mutating request on the cookie needs same-origin proof.
    const evil = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: "https://evil.example",
    });
    await expectError(evil, 403, "err_forbidden");
    const noOrigin = await call(request, "POST", "/v1/employees/totp", { session: sessionToken });
    await expectError(noOrigin, 403, "err_forbidden");
    const crossSite = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: appOrigin,
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    await expectError(crossSite, 403, "err_forbidden");
    const evilSignOut = await call(request, "DELETE", "/v1/sessions/current", {
      session: sessionToken,
      origin: "https://evil.example",
    });
    await expectError(evilSignOut, 403, "err_forbidden");
    // ...and the refused sign-out did not sign anyone out.
    expect((await call(request, "GET", "/v1/sessions/current", { session: sessionToken })).status()).toBe(200);
  });

  test("requires two-factor authentication before issuing keys, and enrols it", async ({ request }) => {
    const early = await call(request, "POST", "/v1/api_keys", {
      session: sessionToken,
      origin: appOrigin,
      json: { expiresAt: inFuture(days(30)) },
    });
    const earlyBody = await expectError(early, 400, "err_otp_required");
    expect(earlyBody.message).toMatch(/enrol|set up/i);

    // The session alone cannot enrol: the current password is required, and a wrong one is refused.
    const noPassword = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: appOrigin,
      json: {},
    });
    expect((await expectError(noPassword, 422, "err_validation")).details).toHaveProperty("password");
    const wrongPassword = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: appOrigin,
      json: { password: "not the owner's password" },
    });
    await expectError(wrongPassword, 403, "err_password_incorrect");
    const start = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: appOrigin,
      json: { password: owner.password },
    });
    const enrolment = await expectOk<{ secret: string; uri: string }>(start);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrolment.uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.uri).toContain("issuer=");
    totpSecret = enrolment.secret;

    const badFormat = await call(request, "POST", "/v1/employees/totp/confirm", {
      session: sessionToken,
      origin: appOrigin,
      json: { code: "12ab56" },
    });
    const badFormatBody = await expectError(badFormat, 422, "err_validation");
    expect(badFormatBody.details).toHaveProperty("code");

    const step = stepAt(Date.now());
    confirmationCode = codeForStep(step);
    const confirm = await call(request, "POST", "/v1/employees/totp/confirm", {
      session: sessionToken,
      origin: appOrigin,
      json: { code: confirmationCode },
    });
    const confirmed = await expectOk<{ twoFactorEnabled: boolean; recoveryCodes: string[] }>(confirm);
    lastSpentStep = step;
    expect(confirmed.twoFactorEnabled).toBe(true);
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    recoveryCodes = confirmed.recoveryCodes;

    const me = await expectOk<{ employee: { twoFactorEnabled: boolean } }>(
      await call(request, "GET", "/v1/sessions/current", { session: sessionToken }),
    );
    expect(me.employee.twoFactorEnabled).toBe(true);

    const restart = await call(request, "POST", "/v1/employees/totp", {
      session: sessionToken,
      origin: appOrigin,
      json: { password: owner.password },
    });
    await expectError(restart, 409, "err_conflict");
  });

  test("issues a key from the session only with a fresh Service-Totp-Code", async ({ request }) => {
    const body = { name: "e2e primary", expiresAt: inFuture(days(90)) };
    const issue = (code?: string) =>
      call(request, "POST", "/v1/api_keys", {
        session: sessionToken,
        origin: appOrigin,
        json: body,
        headers: code === undefined ? {} : { "Service-Totp-Code": code },
      });

    await expectError(await issue(), 400, "err_otp_required");
    await expectError(await issue(wrongTotpCode()), 400, "err_otp_invalid");
    // The confirmation code's time step is spent already: a replay.
    await expectError(await issue(confirmationCode), 400, "err_otp_invalid");

    const code = await freshTotpCode();
    const issued = await expectOk<IssuedKey>(await issue(code), 201);
    expect(issued.secret).toMatch(/^svc_/);
    expect(issued.id).toMatch(/^key_/);
    expect(issued.secret.startsWith(issued.prefix)).toBe(true);
    expect(issued.prefix.length).toBeLessThan(issued.secret.length);
    expect(issued.name).toBe(body.name);
    expect(issued.cidrAllowlist).toEqual([]);
    expect(issued.revokedAt).toBeNull();
    expect(new Date(issued.expiresAt).toISOString()).toBe(body.expiresAt);
    expect(issued).not.toHaveProperty("secretHash");
    firstKey = issued;

    // The same code again: its step is spent.
    await expectError(await issue(code), 400, "err_otp_invalid");
  });

  test("authenticates with the key and never shows its secret again", async ({ request }) => {
    const list = await expectOk<Array<Record<string, unknown>>>(
      await call(request, "GET", "/v1/api_keys", { bearer: firstKey.secret }),
    );
    expect(Array.isArray(list)).toBe(true);
    const listed = list.find((key) => key.id === firstKey.id);
    expect(listed).toBeTruthy();
    expect(listed!.prefix).toBe(firstKey.prefix);
    for (const key of list) {
      expect(key).not.toHaveProperty("secret");
      expect(key).not.toHaveProperty("secretHash");
    }
    // The list as an employee sees it is the same account's keys.
    const bySession = await expectOk<Array<{ id: string }>>(
      await call(request, "GET", "/v1/api_keys", { session: sessionToken }),
    );
    expect(bySession.map((key) => key.id)).toContain(firstKey.id);

    const unknown = `svc_${"A".repeat(43)}`;
    await expectError(await call(request, "GET", "/v1/api_keys", { bearer: unknown }), 401, "err_unauthenticated");
    await expectError(await call(request, "GET", "/v1/api_keys", { bearer: "not-a-key" }), 401, "err_unauthenticated");
    await expectError(
      await call(request, "GET", "/v1/api_keys", {
        headers: { Authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
      }),
      401,
      "err_unauthenticated",
    );
    await expectError(await call(request, "GET", "/v1/api_keys"), 401, "err_unauthenticated");

    // Employee-only routes refuse keys.
    await expectError(
      await call(request, "GET", "/v1/sessions/current", { bearer: firstKey.secret }),
      403,
      "err_forbidden",
    );
  });

  test("enforces a key's CIDR allowlist on the TCP peer, not on X-Forwarded-For", async ({ request }) => {
    // API-key callers need neither a TOTP code nor same-origin proof.
    const issued = await expectOk<IssuedKey>(
      await call(request, "POST", "/v1/api_keys", {
        bearer: firstKey.secret,
        json: { name: "e2e allowlisted", expiresAt: inFuture(days(7)), cidrAllowlist: ["203.0.113.0/24"] },
      }),
      201,
    );
    expect(issued.secret).toMatch(/^svc_/);
    expect(issued.cidrAllowlist).toEqual(["203.0.113.0/24"]);
    secondKey = issued;

    await expectError(
      await call(request, "GET", "/v1/api_keys", { bearer: secondKey.secret }),
      403,
      "err_ip_not_allowed",
    );
    // A client cannot talk its way in by claiming an address.
    const spoofs: Record<string, string>[] = [
      { "X-Forwarded-For": "203.0.113.7" },
      { "X-Forwarded-For": "203.0.113.7, 203.0.113.8" },
      { "X-Real-IP": "203.0.113.7", Forwarded: "for=203.0.113.7" },
    ];
    for (const headers of spoofs) {
      const spoofed = await call(request, "GET", "/v1/api_keys", { bearer: secondKey.secret, headers });
      await expectError(spoofed, 403, "err_ip_not_allowed");
    }

    const updated = await expectOk<ApiKey>(
      await call(request, "POST", `/v1/api_keys/${secondKey.id}`, {
        bearer: firstKey.secret,
        json: { cidrAllowlist: ["127.0.0.0/8", "::1/128"] },
      }),
    );
    expect(updated.id).toBe(secondKey.id);
    expect(updated.cidrAllowlist).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(updated).not.toHaveProperty("secret");

    const allowed = await expectOk<Array<{ id: string }>>(
      await call(request, "GET", "/v1/api_keys", { bearer: secondKey.secret }),
    );
    expect(allowed.map((key) => key.id)).toEqual(expect.arrayContaining([firstKey.id, secondKey.id]));

    const invalid = await call(request, "POST", `/v1/api_keys/${secondKey.id}`, {
      bearer: firstKey.secret,
      json: { cidrAllowlist: ["10.0.0.0/8", "300.1.2.3/33"] },
    });
    const invalidBody = await expectError(invalid, 422, "err_validation");
    expect(invalidBody.details).toHaveProperty(["cidrAllowlist.1"]);
    expect(invalidBody.details).not.toHaveProperty(["cidrAllowlist.0"]);
    const hostBits = await call(request, "POST", `/v1/api_keys/${secondKey.id}`, {
      bearer: firstKey.secret,
      json: { cidrAllowlist: ["10.0.0.1/8"] },
    });
    expect((await expectError(hostBits, 422, "err_validation")).details).toHaveProperty(["cidrAllowlist.0"]);

    // The refused updates changed nothing.
    const after = await expectOk<ApiKey[]>(await call(request, "GET", "/v1/api_keys", { bearer: secondKey.secret }));
    expect(after.find((key) => key.id === secondKey.id)!.cidrAllowlist).toEqual(["127.0.0.0/8", "::1/128"]);

    // From the session the update needs a code too.
    const fromSession = await call(request, "POST", `/v1/api_keys/${secondKey.id}`, {
      session: sessionToken,
      origin: appOrigin,
      json: { cidrAllowlist: [] },
    });
    await expectError(fromSession, 400, "err_otp_required");

    await expectError(
      await call(request, "POST", "/v1/api_keys/key_doesnotexist0", {
        bearer: firstKey.secret,
        json: { cidrAllowlist: [] },
      }),
      404,
      "err_not_found",
    );
  });

  test("revokes keys at once and bounds their expiry", async ({ request }) => {
    const revoked = await expectOk<ApiKey>(
      await call(request, "DELETE", `/v1/api_keys/${secondKey.id}`, { bearer: firstKey.secret }),
    );
    expect(revoked.id).toBe(secondKey.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(new Date(revoked.revokedAt!).getTime()).not.toBeNaN();

    await expectError(
      await call(request, "GET", "/v1/api_keys", { bearer: secondKey.secret }),
      401,
      "err_unauthenticated",
    );

    // Idempotent: revoking again changes nothing.
    const again = await expectOk<ApiKey>(
      await call(request, "DELETE", `/v1/api_keys/${secondKey.id}`, { bearer: firstKey.secret }),
    );
    expect(again.revokedAt).toBe(revoked.revokedAt);
    const update = await call(request, "POST", `/v1/api_keys/${secondKey.id}`, {
      bearer: firstKey.secret,
      json: { cidrAllowlist: [] },
    });
    await expectError(update, 409, "err_conflict");
    await expectError(
      await call(request, "DELETE", "/v1/api_keys/key_doesnotexist0", { bearer: firstKey.secret }),
      404,
      "err_not_found",
    );

    // The first key still works.
    expect((await call(request, "GET", "/v1/api_keys", { bearer: firstKey.secret })).status()).toBe(200);

    const past = await call(request, "POST", "/v1/api_keys", {
      bearer: firstKey.secret,
      json: { expiresAt: inFuture(-60_000) },
    });
    expect((await expectError(past, 422, "err_validation")).details).toHaveProperty("expiresAt");
    const tooFar = await call(request, "POST", "/v1/api_keys", {
      bearer: firstKey.secret,
      json: { expiresAt: inFuture(days(400)) },
    });
    expect((await expectError(tooFar, 422, "err_validation")).details).toHaveProperty("expiresAt");
    const missing = await call(request, "POST", "/v1/api_keys", { bearer: firstKey.secret, json: {} });
    expect((await expectError(missing, 422, "err_validation")).details).toHaveProperty("expiresAt");
  });

  test("signs out, and signs in again only with a second factor", async ({ request }) => {
    const signOut = await call(request, "DELETE", "/v1/sessions/current", { session: sessionToken, origin: appOrigin });
    expect(await expectOk<{ signedOut: boolean }>(signOut)).toEqual({ signedOut: true });
    expect(sessionCookieOf(signOut)).toMatch(/^pmc_session=;.*Max-Age=0/i);
    await expectError(
      await call(request, "GET", "/v1/sessions/current", { session: sessionToken }),
      401,
      "err_unauthenticated",
    );

    const credentials = { email: owner.email, password: owner.password };
    const wrongPassword = await call(request, "POST", "/v1/sessions", {
      json: { ...credentials, password: "not the password at all" },
    });
    await expectError(wrongPassword, 401, "err_unauthenticated");

    const noCode = await call(request, "POST", "/v1/sessions", { json: credentials });
    await expectError(noCode, 400, "err_otp_required");
    const evilOrigin = await call(request, "POST", "/v1/sessions", {
      json: credentials,
      origin: "https://evil.example",
    });
    await expectError(evilOrigin, 403, "err_forbidden");

    // A recovery code works in place of a code, once.
    const recovery = await call(request, "POST", "/v1/sessions", {
      json: { ...credentials, totpCode: recoveryCodes[0] },
    });
    expect((await expectOk<{ employee: { email: string } }>(recovery)).employee.email).toBe(owner.email);
    const recoverySession = tokenOf(sessionCookieOf(recovery));
    expect(recoverySession).not.toBe(sessionToken);
    const reused = await call(request, "POST", "/v1/sessions", {
      json: { ...credentials, totpCode: recoveryCodes[0] },
    });
    await expectError(reused, 400, "err_otp_invalid");

    // A current authenticator code from a step not yet spent (may wait for the next 30 s step).
    const signIn = await call(request, "POST", "/v1/sessions", {
      json: { ...credentials, totpCode: await freshTotpCode() },
      origin: appOrigin,
    });
    const signedIn = await expectOk<{
      employee: { email: string; twoFactorEnabled: boolean; lastLoginAt: string | null };
    }>(signIn);
    expect(signedIn.employee.email).toBe(owner.email);
    expect(signedIn.employee.twoFactorEnabled).toBe(true);
    expect(signedIn.employee.lastLoginAt).not.toBeNull();
    const cookie = sessionCookieOf(signIn);
    expect(cookie).toMatch(/;\s*HttpOnly(;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax(;|$)/i);
    sessionToken = tokenOf(cookie);

    const me = await expectOk<{ employee: { email: string } }>(
      await call(request, "GET", "/v1/sessions/current", { session: sessionToken }),
    );
    expect(me.employee.email).toBe(owner.email);
  });
});
