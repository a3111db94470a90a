import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestProvider, type TestProvider } from "../lib/testing/oidc-provider";
import { enrolTotp, OWNER, type Server } from "./fixtures";
import { expect, test, twoServersOnOneDatabase } from "./postgresql-fixture";

// Single sign-on across two server processes on one PostgreSQL database, behind one origin: the
// browser starts at instance "a" and the provider sends it back to instance "b", which finds the
// sign-in's state, nonce and PKCE verifier in the database. Skipped, saying why, without PostgreSQL.

test.describe.configure({ mode: "serial" });

const { servers, query } = twoServersOnOneDatabase("sso", { SSO_ALLOW_INSECURE_ISSUER: "true" });

/** One origin in front of both: /v1/sso/callback goes to "b", everything else to "a" (Host passed through). */
async function startSplitProxy([a, b]: [Server, Server]) {
  const portOf = (server: Server) => Number(new URL(server.baseURL).port);
  const proxy = http.createServer((req, res) => {
    const upstream = req.url?.startsWith("/v1/sso/callback") ? b : a;
    const forwarded = http.request(
      { host: "127.0.0.1", port: portOf(upstream), method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-upstream": upstream === a ? "a" : "b" });
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) };
}

let provider: TestProvider;
let proxy: Awaited<ReturnType<typeof startSplitProxy>>;

test.beforeAll(async () => {
  proxy = await startSplitProxy(servers());
  provider = await startTestProvider({ redirectUris: [`${proxy.origin}/v1/sso/callback`] });
});

test.afterAll(async () => {
  await provider?.close();
  await proxy?.close();
});

test("started on one instance, finished on the other: signed in once, and the state works only once", async ({
  playwright,
  browser,
}) => {
  const owner = await playwright.request.newContext({
    baseURL: proxy.origin,
    extraHTTPHeaders: { origin: proxy.origin },
  });
  expect((await owner.post("/v1/setup", { data: OWNER })).status()).toBe(201);
  const { authenticator } = await enrolTotp(owner, proxy.origin, OWNER.password);
  const saved = await owner.post("/v1/settings", {
    headers: { "service-totp-code": await authenticator.next() },
    data: { sso: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret } },
  });
  expect(saved.status()).toBe(200);
  await owner.dispose();

  const context = await browser.newContext();
  const page = await context.newPage();
  const callbacks: { url: string; upstream: string | undefined }[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/v1/sso/callback"))
      callbacks.push({ url: response.url(), upstream: response.headers()["x-upstream"] });
  });
  await page.goto(`${proxy.origin}/v1/sso/start?email=${encodeURIComponent(OWNER.email)}`);
  await expect(page).not.toHaveURL(/\/login/);
  expect(callbacks.map((callback) => callback.upstream)).toEqual(["b"]);
  const me = await page.request.get(`${proxy.origin}/v1/sessions/current`);
  expect(await me.json()).toMatchObject({ employee: { email: OWNER.email }, viaSso: true });
  expect(await query<{ count: string }>(`SELECT count(*) FROM "SsoLogin"`)).toEqual([{ count: "0" }]);

  // The same callback again (the browser still holds its state cookie): refused, no second session.
  const again = await page.request.get(callbacks[0]!.url, { maxRedirects: 0 });
  expect(again.status()).toBe(303);
  expect(again.headers().location).toMatch(/\/login\?sso_error=/);
  const sessions = await query<{ count: string }>(`SELECT count(*) FROM "Session" WHERE "viaSso"`);
  expect(sessions).toEqual([{ count: "1" }]);
  await context.close();
});
