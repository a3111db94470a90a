import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as currentSession } from "@/app/v1/sessions/current/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { GET as readSettings } from "@/app/v1/settings/route";
import { GET as startSso } from "@/app/v1/sso/start/route";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { saveSsoConnection } from "@/lib/sso/connection";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, ORIGIN, sessionFrom } from "@/lib/testing/http";
import { startTestProvider, type TestProvider } from "@/lib/testing/oidc-provider";
import { GET as ssoCallback } from "./route";

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [`${ORIGIN}/v1/sso/callback`] });
});
afterAll(() => provider.close());
beforeEach(() => provider.setTamper(null));

/** A platform with SSO through the test provider, and one of its employees (a developer unless said). */
async function ssoPlatform({ enforced = false, allowedDomains = [] as string[], role = "developer" as const } = {}) {
  const owner = await signedInEmployee({ totp: true });
  const employee = await signedInEmployee({ platform: owner.account, role });
  await saveSsoConnection(owner.account.id, {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    allowedDomains,
    enforced,
  });
  return { owner, employee };
}

/** GET /v1/sso/start: the provider's authorization URL and the state cookie it set. */
async function start(email: string) {
  const started = await call(startSso, { path: `/v1/sso/start?email=${encodeURIComponent(email)}` });
  expect(started.status).toBe(302);
  const cookie = /sso_state=([^;]*)/.exec(started.headers.get("set-cookie") ?? "")?.[1];
  return { location: started.headers.get("location")!, stateCookie: cookie ?? "" };
}

/** Follows the provider's redirects as a browser would (its cookies kept) until it sends the browser back here. */
async function throughProvider(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10 && !url.startsWith(ORIGIN); hop++) {
    const answer = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const line of answer.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const location = answer.headers.get("location");
    if (!location) throw new Error(`the provider answered ${answer.status}: ${await answer.text()}`);
    url = new URL(location, url).href;
  }
  return url;
}

/** The callback as the browser that started would call it (its state cookie). */
const callback = (url: string, stateCookie: string) =>
  call(ssoCallback, { path: url.slice(ORIGIN.length), headers: { cookie: `sso_state=${stateCookie}` } });

/** The whole flow for `email`; `tamperUrl` changes the authorization URL before the browser follows it. */
async function signInThroughSso(email: string, tamperUrl: (url: URL) => void = () => {}) {
  const { location, stateCookie } = await start(email);
  const url = new URL(location);
  tamperUrl(url);
  return callback(await throughProvider(url.href), stateCookie);
}

function expectRefused(answer: { status: number; headers: Headers }, message: RegExp) {
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  expect(location.pathname).toBe("/login");
  expect(location.searchParams.get("sso_error")).toMatch(message);
  expect(answer.headers.get("set-cookie")).not.toMatch(/session=/);
}

describe("GET /v1/sso/start and /v1/sso/callback", () => {
  it("signs an active employee in through the provider: a session that counts as two factors", async () => {
    const { owner, employee } = await ssoPlatform();
    await db().account.update({ where: { id: owner.account.id }, data: { requireTwoFactor: true } });
    const { location, stateCookie } = await start(employee.email);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("login_hint")).toBe(employee.email);
    const answer = await callback(await throughProvider(location), stateCookie);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/`);
    const session = sessionFrom(answer.headers);
    const me = await call(currentSession, { session });
    expect(me.body).toMatchObject({ employee: { id: employee.employee.id }, viaSso: true });
    // requireTwoFactor is on and this employee has no authenticator: the SSO session satisfies it.
    expect((await call(readSettings, { session })).status).toBe(200);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "session.sso" } });
    expect(audit.actorId).toBe(employee.employee.id);
  });

  it("every request to the provider (discovery, token, JWKS) goes out through the outbound gate", async () => {
    const { employee } = await ssoPlatform();
    /** The paths the gate requested (its requests leave through node:http) and the calls to fetch, while `work` ran. */
    const watch = async <T>(work: () => Promise<T>) => {
      const requests = vi.spyOn(http, "request");
      const fetches = vi.spyOn(globalThis, "fetch");
      try {
        const result = await work();
        const paths = requests.mock.calls.map(([options]) => (options as http.RequestOptions).path);
        return { result, paths, fetches: fetches.mock.calls.length };
      } finally {
        requests.mockRestore();
        fetches.mockRestore();
      }
    };
    const started = await watch(() => start(employee.email));
    expect(started).toMatchObject({ paths: ["/.well-known/openid-configuration"], fetches: 0 });
    const back = await throughProvider(started.result.location);
    const finished = await watch(() => callback(back, started.result.stateCookie));
    expect(finished.result.status).toBe(303);
    expect(finished.result.headers.get("set-cookie")).toMatch(/session=/);
    expect(finished.fetches).toBe(0);
    expect(finished.paths).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks"]));
  });

  it("a state works once: the same callback again is refused", async () => {
    const { employee } = await ssoPlatform();
    const { location, stateCookie } = await start(employee.email);
    const back = await throughProvider(location);
    expect((await callback(back, stateCookie)).status).toBe(303);
    expectRefused(await callback(back, stateCookie), /already used or has expired/);
  });

  it("refuses a sign-in that took longer than its ten minutes, and two callbacks at once sign in once", async () => {
    const { employee } = await ssoPlatform();
    const late = await start(employee.email);
    const back = await throughProvider(late.location);
    await db().ssoLogin.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expectRefused(await callback(back, late.stateCookie), /already used or has expired/);
    const raced = await start(employee.email);
    const url = await throughProvider(raced.location);
    const answers = await Promise.all([callback(url, raced.stateCookie), callback(url, raced.stateCookie)]);
    expect(answers.map((answer) => answer.headers.get("location")).filter((to) => to === `${ORIGIN}/`)).toHaveLength(1);
  });

  it("refuses a state this browser did not start with", async () => {
    const { employee } = await ssoPlatform();
    const mine = await start(employee.email);
    const theirs = await start(employee.email);
    expectRefused(
      await callback(await throughProvider(mine.location), theirs.stateCookie),
      /not started in this browser/,
    );
    expectRefused(await callback(await throughProvider(theirs.location), ""), /not started in this browser/);
  });

  it("refuses an ID token whose nonce is not the one this sign-in sent", async () => {
    const { employee } = await ssoPlatform();
    const answer = await signInThroughSso(employee.email, (url) => url.searchParams.set("nonce", "another-nonce"));
    expectRefused(answer, /refused: .*nonce/);
    // Recorded in the platform's audit trail, with the reason the page showed.
    const refusal = await db().auditEvent.findFirstOrThrow({
      where: { action: "session.sso", outcome: "denied", platformId: employee.account.id },
    });
    expect(refusal).toMatchObject({ status: 401, actorId: null });
    expect(refusal.details).toEqual({ reason: expect.stringMatching(/nonce/) });
  });

  it("refuses an ID token for another audience, from another issuer, or signed by another key", async () => {
    const { employee } = await ssoPlatform();
    provider.setTamper({ claims: { aud: "someone-else" } });
    expectRefused(await signInThroughSso(employee.email), /refused: .*aud/);
    provider.setTamper({ claims: { iss: "http://127.0.0.1:1" } });
    expectRefused(await signInThroughSso(employee.email), /refused: .*iss/);
    provider.setTamper({ foreignKey: true });
    expectRefused(await signInThroughSso(employee.email), /refused/);
    provider.setTamper({ claims: { exp: Math.floor(Date.now() / 1000) - 3600 } });
    expectRefused(await signInThroughSso(employee.email), /refused: .*exp/);
    provider.setTamper(null);
    expect((await signInThroughSso(employee.email)).headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("refuses an e-mail the provider has not verified, and one no active employee has", async () => {
    const { employee } = await ssoPlatform();
    provider.users.set(employee.email, { email_verified: false });
    expectRefused(await signInThroughSso(employee.email), /not verified/);
    provider.users.set(employee.email, { email: "stranger@example.com" });
    expectRefused(await signInThroughSso(employee.email), /no active employee has that e-mail/);
    provider.users.delete(employee.email);
  });

  it("refuses an e-mail outside the allowed domains", async () => {
    const { employee } = await ssoPlatform({ allowedDomains: ["corp.example"] });
    expectRefused(await signInThroughSso(employee.email), /example\.com may not sign in/);
  });

  it("ends SSO sessions at deactivation, and refuses a deactivated employee's next sign-in", async () => {
    const { employee } = await ssoPlatform();
    const session = sessionFrom((await signInThroughSso(employee.email)).headers);
    await db().employee.update({ where: { id: employee.employee.id }, data: { status: "deactivated" } });
    expectError(await call(currentSession, { session }), 401, "err_unauthenticated");
    expectRefused(await signInThroughSso(employee.email), /no active employee/);
  });

  it("start: at most 30 sign-ins started from one client in 15 minutes; the rest go back to sign-in", async () => {
    const { employee } = await ssoPlatform();
    const path = `/v1/sso/start?email=${encodeURIComponent(employee.email)}`;
    for (let started = 0; started < 30; started++) {
      const answer = await call(startSso, { path, ip: "203.0.113.9" });
      expect(new URL(answer.headers.get("location")!).origin).toBe(provider.issuer);
    }
    const refused = await call(startSso, { path, ip: "203.0.113.9" });
    expect(new URL(refused.headers.get("location")!).searchParams.get("sso_error")).toMatch(/^Too many sign-ins/);
    const elsewhere = await call(startSso, { path, ip: "198.51.100.4" });
    expect(new URL(elsewhere.headers.get("location")!).origin).toBe(provider.issuer);
  });

  it("start: an e-mail without SSO goes back to sign-in saying so", async () => {
    const other = await signedInEmployee();
    const answer = await call(startSso, { path: `/v1/sso/start?email=${encodeURIComponent(other.email)}` });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get("location")!).searchParams.get("sso_error")).toMatch(/not set up/);
    expect(answer.headers.get("set-cookie")).toBeNull();
  });
});

describe("enforcement", () => {
  it("password sign-in answers 403 err_sso_required to all but owners, who keep their break-glass password", async () => {
    const { owner, employee } = await ssoPlatform({ enforced: true });
    const refused = await call(signIn, { method: "POST", body: { email: employee.email, password: PASSWORD } });
    expectError(refused, 403, "err_sso_required");
    expect(refused.headers.get("set-cookie")).toBeNull();
    // A wrong password learns nothing about enforcement.
    expectError(
      await call(signIn, { method: "POST", body: { email: employee.email, password: "wrong" } }),
      401,
      "err_unauthenticated",
    );
    const breakGlass = await call(signIn, {
      method: "POST",
      body: { email: owner.email, password: PASSWORD, totpCode: owner.authenticator!.nextCode() },
    });
    expect(breakGlass.status).toBe(200);
    expect((await signInThroughSso(employee.email)).headers.get("location")).toBe(`${ORIGIN}/`);
  });
});

describe("the insecure issuer switch", () => {
  it("refuses an http issuer unless SSO_ALLOW_INSECURE_ISSUER=true, and http anywhere but loopback always", async () => {
    const { owner } = await ssoPlatform();
    const save = (issuer: string) =>
      saveSsoConnection(owner.account.id, { issuer, clientId: "c", allowedDomains: [], enforced: false });
    await expect(save("http://example.com")).rejects.toThrow(/must be an https URL/);
    process.env.SSO_ALLOW_INSECURE_ISSUER = "false";
    resetEnv();
    try {
      await expect(save(provider.issuer)).rejects.toThrow(/must be an https URL/);
    } finally {
      process.env.SSO_ALLOW_INSECURE_ISSUER = "true";
      resetEnv();
    }
  });
});
