import { expect, test, watchCsp } from "./fixtures";

// /docs is a human-readable API reference (docs/dashboard.md) rendered from
// /v1/openapi.json by the server itself: no third-party host, and it passes the page CSP.

type OpenApi = { paths: Record<string, Record<string, { operationId: string; summary: string }>> };

test("/docs renders every operation of the OpenAPI document, from this host only, with no CSP violation", async ({
  page,
  baseURL,
}, testInfo) => {
  const violations = await watchCsp(page);
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
  });
  const openApi = (await (await page.request.get("/v1/openapi.json")).json()) as OpenApi;
  const operations = Object.entries(openApi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), ...operation })),
  );
  expect(operations.length).toBeGreaterThan(50);

  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "Platform Management and Compliance API" })).toBeVisible();
  const sections = page.locator("main section[id] > h3");
  await expect(sections).toHaveCount(operations.length);
  for (const operation of operations) {
    const title = page.locator(`[id="${operation.operationId}-title"]`);
    await expect(title, `${operation.method} ${operation.path}`).toHaveText(`${operation.method}${operation.path}`);
  }
  // An operation shows its permission, its parameters, its body's fields and its errors.
  const issueKey = page.locator('section[id="postV1ApiKeys"]');
  await expect(issueKey).toContainText("Permission: api_keys:write");
  await expect(issueKey).toContainText("Idempotency-Key");
  await expect(issueKey.getByText("expiresAt", { exact: true }).first()).toBeVisible();
  await expect(issueKey).toContainText("422");
  await page
    .getByRole("navigation", { name: "Operations" })
    .getByRole("link", { name: "Information requests" })
    .click();
  await expect(page).toHaveURL(/#tag-information-requests$/);
  await page.screenshot({ path: testInfo.outputPath("docs.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("docs-phone.png") });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  expect(elsewhere, "requests to another host").toEqual([]);
  expect(violations, "CSP violations").toEqual([]);
});

test("/reference leads to /docs, and the API keys page links to it", async ({ page, employee: _ }) => {
  await page.goto("/reference");
  await expect(page).toHaveURL(/\/docs$/);
  await page.goto("/api-keys");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Platform Management and Compliance API");
});
