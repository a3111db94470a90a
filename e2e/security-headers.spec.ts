import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, Browser } from "@playwright/test";
import { EMPLOYEE_PASSWORD, expect, OWNER, startServer, test, watchCsp } from "./fixtures";

// Every response carries these (docs/operations.md, Running in production); pages get a strict CSP with a
// per-request nonce (server.mjs), everything else a CSP that allows nothing (server.mjs).
const EVERY_RESPONSE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};
const NOT_A_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function expectSecurityHeaders(headers: Record<string, string>, what: string, kind: "page" | "other") {
  expect(headers, what).toMatchObject(EVERY_RESPONSE);
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, `${what}: a CSP header`).not.toBe("");
  expect(csp, `${what}: one CSP header`).not.toContain("\n");
  if (kind === "other") {
    expect(csp, what).toBe(NOT_A_PAGE_CSP);
    return;
  }
  expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'(;|$)/);
  expect(csp, what).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='(;|$)/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toContain("unsafe-eval");
  expect(csp.replace("style-src-attr 'unsafe-inline'", ""), what).not.toContain("unsafe-inline");
}

/** GETs `url` with `request`, expects `status` and the security headers of `kind` (see expectSecurityHeaders); returns the response. */
async function getWithSecurityHeaders(
  request: APIRequestContext,
  url: string,
  status: number,
  what: string,
  kind: "page" | "other",
) {
  const response = await request.get(url);
  expect(response.status()).toBe(status);
  expectSecurityHeaders(response.headers(), what, kind);
  return response;
}

test.describe("security headers", () => {
  test("on a page, an API response, the health check, a 404 of each kind and static assets; no two pages share a nonce", async ({
    page,
    request: anonymous,
  }) => {
    const request = page.request; // signed in
    const pageResponse = await request.get("/security", { maxRedirects: 0 });
    expect(pageResponse.status()).toBe(200);
    expectSecurityHeaders(pageResponse.headers(), "page", "page");
    const html = await pageResponse.text();
    const nonce = /'nonce-([^']+)'/.exec(pageResponse.headers()["content-security-policy"]!)![1]!;
    // Every script in the document carries this response's nonce: none would run otherwise.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    const again = await request.get("/security");
    expect(again.headers()["content-security-policy"]).not.toContain(nonce);

    const api = await getWithSecurityHeaders(request, "/v1/sessions/current", 200, "API response", "other");
    await getWithSecurityHeaders(anonymous, "/v1/api_keys", 401, "API error", "other");
    expectSecurityHeaders((await request.get("/healthz")).headers(), "health check", "other");
    expectSecurityHeaders((await request.get("/v1/openapi.json")).headers(), "OpenAPI document", "other");

    await getWithSecurityHeaders(request, "/no-such-page", 404, "Next.js's 404 page", "page");
    await getWithSecurityHeaders(request, "/v1/no_such_route", 404, "API 404", "other");
    await getWithSecurityHeaders(request, "/_next/static/chunks/no-such-chunk.js", 404, "static 404", "other");

    const assets = [...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true);
    expect(assets.some((asset) => asset.endsWith(".css"))).toBe(true);
    for (const asset of [...new Set(assets)].slice(0, 6)) {
      const response = await request.get(asset);
      expect(response.status(), asset).toBe(200);
      expectSecurityHeaders(response.headers(), asset, "other");
    }
    const icon = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
    expect(icon).toBeTruthy();
    const iconResponse = await getWithSecurityHeaders(request, icon!, 200, "icon", "other");

    // No HSTS over plain HTTP without COOKIE_SECURE.
    for (const response of [pageResponse, api, iconResponse])
      expect(response.headers()["strict-transport-security"]).toBeUndefined();
    await page.goto("/security");
  });

  test("with COOKIE_SECURE=true every response also carries Strict-Transport-Security", async ({ playwright }) => {
    const server = await startServer({ COOKIE_SECURE: "true" });
    try {
      const request = await playwright.request.newContext({ baseURL: server.baseURL });
      const responses = await Promise.all(
        ["/setup", "/healthz", "/v1/api_keys", "/nowhere", "/v1/nowhere"].map((path) =>
          request.get(path, { maxRedirects: 0 }),
        ),
      );
      const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(await responses[0]!.text())![1]!;
      responses.push(await request.get(asset));
      for (const response of responses) {
        expect(response.headers()["strict-transport-security"], response.url()).toBe(
          "max-age=31536000; includeSubDomains",
        );
        expect(response.headers(), response.url()).toMatchObject(EVERY_RESPONSE);
      }
      await request.dispose();
    } finally {
      await server.stop();
    }
  });
});

test.describe("the dashboard under its CSP", () => {
  test("signed-in pages load, navigate, open dialogs and submit forms with no CSP violation", async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto("/information-requests");
    await expect(page.getByRole("heading", { level: 1, name: "Information requests" })).toBeVisible();
    // Client-side navigation (the router fetches and runs code) through the main navigation.
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [link, heading] of [
      ["Transactions", "Transactions"],
      ["Employees", "Employees"],
      ["API keys", "API keys"],
      ["Audit log", "Audit log"],
      ["Settings", "Settings"],
      ["Security", "Security"],
    ] as const) {
      await nav.getByRole("link", { name: link, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
    // The QR code (an SVG rendered by the page's script) and a form that answers from the API.
    await page
      .getByRole("form", { name: "Set up two-factor authentication" })
      .getByLabel("Current password")
      .fill(EMPLOYEE_PASSWORD);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByTestId("totp-qr")).toBeVisible();
    const code = page.getByLabel("Authenticator code");
    await code.fill("000000"); // right once in a million or so
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect(code).toHaveAttribute("aria-invalid", "true");
    // A full page load of another page, and a dialog.
    await page.goto("/api-keys");
    await page.getByRole("button", { name: "Issue key" }).click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Issue API key" })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await expect(page).toHaveURL(/\/information-requests$/);
    expect(violations).toEqual([]);
  });

  test("sign-in: the form works with no CSP violation", async ({ browser, baseURL, employee }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const violations = await watchCsp(page);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(employee.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("The e-mail address or password is wrong")).toBeVisible();
    await page.getByLabel("Password").fill(employee.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(/^Signed in as/)).toContainText(employee.name);
    expect(violations).toEqual([]);
    await context.close();
  });

  test("setup on a fresh install: the page works with no CSP violation", async ({ browser }) => {
    const server = await startServer();
    try {
      const context = await browser.newContext({ baseURL: server.baseURL });
      const page = await context.newPage();
      const violations = await watchCsp(page);
      await page.goto("/");
      await expect(page).toHaveURL(/\/setup/);
      await page.getByLabel("Setup token").fill(OWNER.setupToken);
      await page.getByLabel("Platform name").fill(OWNER.accountName);
      await page.getByLabel("Your name").fill(OWNER.name);
      await page.getByLabel("E-mail").fill(OWNER.email);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: /create/i }).click();
      await expect(page.getByText(/at least 12/i).first()).toBeVisible();
      await page.getByLabel("Password").fill(OWNER.password);
      await page.getByRole("button", { name: /create/i }).click();
      await expect(page.getByText(/^Signed in as/)).toContainText(OWNER.name);
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});

/** A page on another origin (another port) that frames `urls`, and one of its own pages as a control. */
async function framingSite(urls: string[]): Promise<{ url: string; server: HttpServer }> {
  const server = createServer((req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    if (req.url === "/own") return res.end("<!doctype html><h1>own page</h1>");
    res.end(
      `<!doctype html>${[...urls, "/own"].map((url) => `<iframe src="${url}" width="600" height="300"></iframe>`).join("")}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function framedContents(browser: Browser, url: string, count: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect.poll(() => page.frames().length).toBe(count + 1);
  const own = page.frames().find((frame) => frame.url().endsWith("/own"))!;
  await expect(own.locator("h1")).toHaveText("own page");
  // A refused frame shows Chromium's error page, never the framed document.
  const contents = await Promise.all(
    page
      .frames()
      .slice(1)
      .filter((frame) => frame !== own)
      .map(async (frame) => ({
        url: frame.url(),
        text: await frame
          .locator("body")
          .innerText()
          .catch(() => ""),
      })),
  );
  await context.close();
  return contents;
}

test("the dashboard cannot be framed by another site (pages and the API alike)", async ({ browser, baseURL }) => {
  const targets = [`${baseURL}/login`, `${baseURL}/information-requests`, `${baseURL}/v1/openapi.json`];
  const site = await framingSite(targets);
  try {
    const contents = await framedContents(browser, site.url, targets.length + 1);
    expect(contents).toHaveLength(targets.length);
    for (const frame of contents) {
      expect(frame.url).not.toContain(new URL(baseURL!).host);
      expect(frame.text).not.toMatch(/Sign in|Information requests|openapi/);
    }
  } finally {
    site.server.close();
  }
});
