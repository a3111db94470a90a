import Database from "better-sqlite3";
import path from "node:path";
import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { startTestProvider, type TestProvider } from "../lib/testing/oidc-provider";
import { enrolTotp, freePort, OWNER, snapAlsoOnPhone, startServer, type Server } from "./fixtures";

// Single sign-on in Chromium, against a real OpenID provider (oidc-provider) on loopback: the owner
// sets it up and tests the issuer on the Settings page; an employee signs in with "Sign in with SSO";
// an unknown e-mail comes back to sign-in with a message; with SSO required, password sign-in is
// refused to the employee and kept for the owner (break-glass).

test.describe.configure({ mode: "serial" });

let provider: TestProvider;
let server: Server;
let owner: APIRequestContext;
let recoveryCodes: string[];
let authenticator: Awaited<ReturnType<typeof enrolTotp>>["authenticator"];
const employee = { id: "emp_ssoe2eemployee0001", name: "Sam Single", email: "sam.single@acme.example" };

test.beforeAll(async () => {
  const port = await freePort();
  provider = await startTestProvider({ redirectUris: [`http://127.0.0.1:${port}/v1/sso/callback`] });
  server = await startServer({ PORT: String(port), SSO_ALLOW_INSECURE_ISSUER: "true" });
  owner = await playwrightRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const setup = await owner.post("/v1/setup", { data: OWNER });
  expect(setup.status()).toBe(201);
  const { account } = (await setup.json()) as { account: { id: string } };
  ({ recoveryCodes, authenticator } = await enrolTotp(owner, server.baseURL, OWNER.password));
  // A developer with the owner's password, straight in the database (an invitation would cost another code).
  const db = new Database(path.join(server.dataDir, "app.db"));
  try {
    const { passwordHash } = db.prepare(`SELECT "passwordHash" FROM "Employee" WHERE email = ?`).get(OWNER.email) as {
      passwordHash: string;
    };
    db.prepare(
      `INSERT INTO "Employee" (id, "accountId", name, email, "passwordHash", status, role, "createdAt") VALUES (?, ?, ?, ?, ?, 'active', 'developer', ?)`,
    ).run(employee.id, account.id, employee.name, employee.email, passwordHash, Date.now());
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await owner?.dispose();
  await server?.stop();
  await provider?.close();
});

test("the owner sets up SSO on Settings, and an employee signs in with the company's provider", async ({
  browser,
}, testInfo) => {
  const ownerContext = await browser.newContext({ storageState: await owner.storageState() });
  const settings = await ownerContext.newPage();
  await settings.goto(`${server.baseURL}/settings`);
  const section = settings.getByRole("form", { name: "Single sign-on" });
  await expect(section.getByTestId("sso-state")).toHaveText("Off");
  await section.getByLabel("Issuer URL").fill(provider.issuer);
  await section.getByLabel("Client ID").fill(provider.clientId);
  await section.getByLabel("Client secret").fill(provider.clientSecret);
  await section.getByLabel("Allowed e-mail domains").fill("acme.example");
  await section.getByRole("switch", { name: "Require single sign-on" }).check();
  await section.getByRole("button", { name: "Test issuer" }).click();
  await expect(section.getByTestId("sso-test-result")).toContainText(`Discovery works: ${provider.issuer}`);
  await snapAlsoOnPhone(settings, testInfo, "settings-sso", "settings-sso-phone");
  await section.getByRole("button", { name: "Save single sign-on" }).click();
  const dialog = settings.getByRole("dialog", { name: "Save single sign-on" });
  await dialog.getByLabel(/code/i).fill(await authenticator.next());
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(section.getByTestId("sso-state")).toHaveText("On, required");
  await expect(section.getByLabel("Client secret")).toHaveValue("");
  await ownerContext.close();

  let page = await browser.newPage();
  await page.goto(`${server.baseURL}/login`);
  await expect(page.getByRole("button", { name: "Sign in with SSO" })).toBeVisible();
  await expect(page.getByText("Owners: sign in with a password")).toBeVisible();
  await snapAlsoOnPhone(page, testInfo, "sign-in-sso", "sign-in-sso-phone");

  // Someone the provider knows but the platform does not: back to sign-in, saying why.
  await page.getByLabel("Work e-mail").fill("stranger@acme.example");
  await page.getByRole("button", { name: "Sign in with SSO" }).click();
  await expect(page).toHaveURL(/\/login\?sso_error=/);
  await expect(page.locator(".alert.error")).toContainText("no active employee has that e-mail address");
  await snapAlsoOnPhone(page, testInfo, "sign-in-sso-refused", "sign-in-sso-refused-phone");

  await page.close();

  // A browser of its own: the provider still has the stranger signed in in the first one.
  const context = await browser.newContext();
  page = await context.newPage();
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel("Work e-mail").fill(employee.email);
  await page.getByRole("button", { name: "Sign in with SSO" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  const me = await page.request.get(`${server.baseURL}/v1/sessions/current`);
  expect(await me.json()).toMatchObject({ employee: { email: employee.email }, viaSso: true });
  await expect(page.getByText(employee.name).first()).toBeVisible();
  await context.close();
});

test("with SSO required, an invitation activates the account without a password and the employee signs in through the provider", async ({
  browser,
}, testInfo) => {
  const invited = await owner.post("/v1/employees", {
    headers: { "service-totp-code": await authenticator.next() },
    data: { name: "Ivy Invited", email: "ivy.invited@acme.example", role: "compliance" },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl } = (await invited.json()) as { invitationUrl: string };

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invitationUrl);
  await expect(page.getByRole("heading", { name: "Join your team" })).toBeVisible();
  await expect(page.getByText("Your platform signs in through single sign-on")).toBeVisible();
  // No password to choose: it would open nothing while single sign-on is required.
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await snapAlsoOnPhone(page, testInfo, "invitation-sso", "invitation-sso-phone");
  await page.getByRole("button", { name: "Activate account" }).click();
  await expect(page.getByRole("status")).toContainText("Your account is active");
  const noSession = await page.request.get(`${server.baseURL}/v1/sessions/current`);
  expect(noSession.status()).toBe(401);
  await snapAlsoOnPhone(page, testInfo, "invitation-sso-active", "invitation-sso-active-phone");

  await page.getByRole("link", { name: "Sign in with SSO" }).click();
  await page.getByLabel("Work e-mail").fill("ivy.invited@acme.example");
  await page.getByRole("button", { name: "Sign in with SSO" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  const me = await page.request.get(`${server.baseURL}/v1/sessions/current`);
  expect(await me.json()).toMatchObject({ employee: { email: "ivy.invited@acme.example" }, viaSso: true });

  // The link was used: it answers like any unknown link.
  await page.goto(invitationUrl);
  await expect(page.getByText("This invitation link is invalid or has expired")).toBeVisible();
  await context.close();
});

test("with SSO required, password sign-in is refused to employees and kept for owners (break-glass)", async ({
  playwright,
  browser,
}, testInfo) => {
  const anyone = await playwright.request.newContext({ extraHTTPHeaders: { origin: server.baseURL } });
  const refused = await anyone.post(`${server.baseURL}/v1/sessions`, {
    data: { email: employee.email, password: OWNER.password },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error_code: string }).error_code).toBe("err_sso_required");
  const breakGlass = await anyone.post(`${server.baseURL}/v1/sessions`, {
    data: { email: OWNER.email, password: OWNER.password, totpCode: recoveryCodes[0] },
  });
  expect(breakGlass.status()).toBe(200);

  // No longer required (the stored client secret kept, since the update leaves it out): passwords work again.
  const relaxed = await owner.post("/v1/settings", {
    headers: { "service-totp-code": await authenticator.next() },
    data: { sso: { issuer: provider.issuer, clientId: provider.clientId, allowedDomains: ["acme.example"] } },
  });
  expect(relaxed.status()).toBe(200);
  expect(((await relaxed.json()) as { sso: unknown }).sso).toMatchObject({ enforced: false, clientSecretSet: true });
  const signedIn = await anyone.post(`${server.baseURL}/v1/sessions`, {
    data: { email: employee.email, password: OWNER.password },
  });
  expect(signedIn.status()).toBe(200);
  await anyone.dispose();

  const page = await browser.newPage();
  await page.goto(`${server.baseURL}/login`);
  await expect(page.getByText("or with your password")).toBeVisible();
  await snapAlsoOnPhone(page, testInfo, "sign-in-sso-optional", "sign-in-sso-optional-phone");
  await page.getByLabel("Work e-mail").fill(employee.email);
  await page.getByRole("button", { name: "Sign in with SSO" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.close();
});
