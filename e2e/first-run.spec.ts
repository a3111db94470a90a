import { test as base, expect } from "@playwright/test";
import { freePort, OWNER, printedSetupLink, snap, startServer, type Server } from "./fixtures";

// A fresh install, on a server of its own, as an operator starts it: no SETUP_TOKEN, so the server
// generates one and prints the setup link (on a port chosen up front, so the link names it).
const test = base.extend<{ fresh: Server }>({
  fresh: async ({}, use) => {
    const server = await startServer({ SETUP_TOKEN: "", PORT: String(await freePort()) });
    await use(server);
    await server.stop();
  },
});

test("a fresh install prints a setup link; the link sets up the platform, and afterwards / leads to sign-in", async ({
  page,
  fresh,
}, testInfo) => {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (
      message.type() === "error" &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    )
      problems.push(message.text());
  });

  const notFound: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });

  const link = printedSetupLink(fresh);
  expect(link, `the server printed a setup link:\n${fresh.output()}`).toMatch(
    /^http:\/\/localhost:\d+\/setup\?token=[A-Za-z0-9_-]{43}$/,
  );
  const token = new URL(link!).searchParams.get("token")!;

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

  // Without the link, the page asks for the token. The form validates with the API's own schema first.
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByLabel("Setup token")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Platform name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Setup token").fill("a-token-someone-guessed");
  await page.getByLabel("Platform name").fill(OWNER.accountName);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("E-mail").fill("not an e-mail");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByText("must be an e-mail address")).toBeVisible();
  await expect(page.getByText("must be at least 12 characters")).toBeVisible();
  await snap(page, testInfo, "setup-errors");

  // A common password: the form cannot hold the list, so the server's reason shows under the field.
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill("Password1234");
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Password")).toHaveAccessibleDescription(
    /is one of the 100,000 most common passwords; choose another/,
  );
  await snap(page, testInfo, "setup-common-password");

  // A wrong token: the server refuses it and the page says so at the field; nobody is created.
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByText("This setup token is wrong. Copy it again from the server's log")).toBeVisible();
  await expect(page.getByLabel("Setup token")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/setup$/);
  await snap(page, testInfo, "setup-wrong-token");

  // A link with a stale token: the token field appears with a message to take the link again (on a phone here).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${fresh.baseURL}/setup?token=an-old-token-from-yesterday`);
  await expect(page.getByTestId("setup-token-from-link")).toBeVisible();
  await expect(page.getByLabel("Setup token")).toHaveCount(0);
  await fillOwner();
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page.getByText("The setup token in this link is wrong or out of date")).toBeVisible();
  await expect(page.getByLabel("Setup token")).toHaveValue("");
  await snap(page, testInfo, "setup-stale-link-390");

  // The printed link fills the token in, out of sight; the rest is the owner's to fill.
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(link!);
    await expect(page.getByTestId("setup-token-from-link")).toHaveText("Setup token: taken from your setup link.");
    await expect(page.getByLabel("Setup token")).toHaveCount(0);
    await expect(page.locator('input[name="setupToken"]')).toHaveValue(token);
    await snap(page, testInfo, `setup-from-link-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await fillOwner();
  await page.getByRole("button", { name: "Create platform" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByTestId("two-factor-status")).toHaveText("Off");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("link", { name: OWNER.accountName })).toBeVisible();

  // The link is dead now: the API refuses its token (setup is done), and the server never printed it again.
  const reused = await page.request.post(`${fresh.baseURL}/v1/setup`, {
    data: { ...OWNER, setupToken: token },
    headers: { origin: fresh.baseURL },
  });
  expect(reused.status()).toBe(409);
  expect(fresh.output().split(token).length - 1).toBe(1);

  // Setup is closed now: the page and the API both send people to sign in.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/setup`);
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/`);
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${fresh.baseURL}/api-keys`);
  // A dashboard page asked for signed out: sign-in, then back there.
  await expect(page).toHaveURL(/\/login\?next=%2Fapi-keys$/);

  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill("the wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "e-mail address or password is wrong" })).toBeVisible();
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Back to the page asked for before signing in.
  await expect(page).toHaveURL(/\/api-keys$/);
  await snap(page, testInfo, "signed-in");
  expect(problems).toEqual([]);
  expect(fresh.output().split(token).length - 1).toBe(1);

  async function fillOwner() {
    await page.getByLabel("Platform name").fill(OWNER.accountName);
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("E-mail").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
  }
});
