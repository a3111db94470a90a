import { test as base, expect } from "@playwright/test";
import { OWNER, snap, startServer, type Server } from "./fixtures";

// A fresh install, on a server of its own: setup first, then sign-in.
const test = base.extend<{ fresh: Server }>({
  fresh: async ({}, use) => {
    const server = await startServer();
    await use(server);
    await server.stop();
  },
});

test("a fresh install opens on setup, creates the platform, and afterwards / leads to sign-in", async ({ page, fresh }, testInfo) => {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(message.text());
  });

  const notFound: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });

  await page.goto(`${fresh.baseURL}/`);
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Set up Platform Compliance" })).toBeVisible();
  await snap(page, testInfo, "setup");

  // The app has an icon, so the browser's request for one finds it (no 404 in the console).
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const iconResponse = await page.request.get(new URL(icon!, fresh.baseURL).toString());
  expect(iconResponse.status()).toBe(200);
  expect(iconResponse.headers()["content-type"]).toMatch(/^image\//);
  expect(notFound).toEqual([]);

  // The form validates with the API's own schema before sending anything.
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByLabel("Platform name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Platform name").fill(OWNER.accountName);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("E-mail").fill("not an e-mail");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByText("must be an e-mail address")).toBeVisible();
  await expect(page.getByText("must be at least 12 characters")).toBeVisible();
  await snap(page, testInfo, "setup-errors");

  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByTestId("two-factor-status")).toHaveText("Off");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: OWNER.accountName })).toBeVisible();

  // Setup is closed now: the page and the API both send people to sign in.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/setup`);
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/`);
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/api-keys`);
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill("the wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "e-mail address or password is wrong" })).toBeVisible();
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/information-requests$/);
  await snap(page, testInfo, "signed-in");
  expect(problems).toEqual([]);
});
