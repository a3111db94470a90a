import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { linkIn, startSmtpSink, type SmtpSink } from "../lib/testing/smtp-sink";
import {
  EMPLOYEE_PASSWORD,
  enrolTotp,
  expect,
  OWNER,
  snap,
  snapAlsoOnPhone,
  startServer,
  test,
  type Server,
} from "./fixtures";

// Secrets shown once stay until the user ticks that they saved them (docs/dashboard.md, Behaviour);
// invitations and password-reset links are also e-mailed when SMTP is configured (here a real SMTP
// server the test starts); a password-reset link sets a new password and ends the employee's sessions.

const NEW_PASSWORD = "a brand new reset passphrase";
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Escape twice (Chromium lets a second Escape close a dialog whose first was refused, unless the page reopens it), and the dialog is still there. */
async function expectEscapeRefused(page: Page, dialog: Locator) {
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await page.waitForTimeout(200);
  await expect(dialog).toBeVisible();
}

/** A shown-once dialog: Done waits for the tick, Escape is refused; once ticked, Done closes it. */
async function tickAndClose(page: Page, dialog: Locator, tick: string) {
  const done = dialog.getByRole("button", { name: "Done" });
  await expect(done).toBeDisabled();
  await expectEscapeRefused(page, dialog);
  await dialog.getByLabel(tick).check();
  await expect(done).toBeEnabled();
  await done.click();
  await expect(dialog).toBeHidden();
}

test.describe("secrets shown once", () => {
  test("a new key's secret stays on screen until ticked: Escape and Done do nothing before", async ({
    page,
    baseURL,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    await page.goto("/api-keys");
    await page.getByRole("button", { name: "Issue key" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill(`Shown once ${unique()}`);
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(dialog.getByTestId("api-key-secret")).toHaveText(/^svc_/);
    const done = dialog.getByRole("button", { name: "Done" });
    await expect(done).toBeDisabled();
    await done.click({ force: true });
    await expect(dialog.getByTestId("api-key-secret")).toBeVisible();
    await snapAlsoOnPhone(page, testInfo, "1-secret-unticked", "2-secret-unticked-phone");
    await tickAndClose(page, dialog, "I have saved the key");
    await expect(page.getByTestId("api-key-secret")).toHaveCount(0);
  });
});

type Mailed = { server: Server; sink: SmtpSink; owner: BrowserContext; ownerPage: Page; code: () => Promise<string> };

/** A fresh server that e-mails through a test SMTP server, set up, its owner signed in with 2FA in a browser. */
async function mailingServer(browser: Browser): Promise<Mailed> {
  const sink = await startSmtpSink();
  const server = await startServer({ SMTP_URL: sink.url, MAIL_FROM: "Acme Compliance <no-reply@acme.example>" });
  const owner = await browser.newContext({ baseURL: server.baseURL });
  const setup = await owner.request.post("/v1/setup", { data: OWNER, headers: { origin: server.baseURL } });
  expect(setup.status()).toBe(201);
  const { authenticator } = await enrolTotp(owner.request, server.baseURL, OWNER.password);
  return { server, sink, owner, ownerPage: await owner.newPage(), code: () => authenticator.next() };
}

async function stop({ server, sink, owner }: Mailed) {
  await owner.close();
  await server.stop();
  await sink.close();
}

/** Invites someone from the employees page; the invitation link is shown once and also e-mailed. */
async function inviteFromPage(mailed: Mailed, name: string, email: string) {
  const page = mailed.ownerPage;
  await page.goto("/employees");
  await page.getByRole("button", { name: "Invite employee" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Authenticator code").fill(await mailed.code());
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByTestId("link-emailed")).toHaveText(`It was also e-mailed to ${email}.`);
  const shown = (await dialog.getByTestId("invitation-url").textContent())!;
  await tickAndClose(page, dialog, "I have copied the link");
  return shown;
}

test.describe("e-mail over SMTP", () => {
  test("an invitation arrives by e-mail and its link works: the invitee joins and signs in", async ({
    browser,
  }, testInfo) => {
    const mailed = await mailingServer(browser);
    const invitee = await browser.newContext({ baseURL: mailed.server.baseURL });
    try {
      const email = `mailed.${unique()}@acme.example`;
      const shown = await inviteFromPage(mailed, "Morgan Mailed", email);
      const mail = await mailed.sink.waitFor(email, /invited/);
      expect(mail.from).toBe("no-reply@acme.example");
      const link = linkIn(mail);
      expect(link).toBe(shown);

      const page = await invitee.newPage();
      await page.goto(link);
      await page.getByLabel("Password", { exact: true }).fill(EMPLOYEE_PASSWORD);
      await page.getByLabel("Repeat password").fill(EMPLOYEE_PASSWORD);
      await page.getByRole("button", { name: "Activate account" }).click();
      await expect(page).toHaveURL(/\/security$/);
      // Signed out and in again with the password they chose.
      await invitee.clearCookies();
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(EMPLOYEE_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).not.toHaveURL(/\/login/);
      const me = await invitee.request.get("/v1/sessions/current");
      expect(((await me.json()) as { employee: { email: string } }).employee.email).toBe(email);
      await snap(page, testInfo, "invitee-signed-in");
    } finally {
      await invitee.close();
      await stop(mailed);
    }
  });

  test("password reset: the admin creates a link (shown once, e-mailed), the employee sets a new password, old sessions end, they sign in", async ({
    browser,
  }, testInfo) => {
    const mailed = await mailingServer(browser);
    const employee = await browser.newContext({ baseURL: mailed.server.baseURL });
    try {
      const email = `forgetful.${unique()}@acme.example`;
      const name = "Riley Forgetful";
      const invitation = await employee.request.post("/v1/employees/invitations/accept", {
        data: {
          token: new URL(await inviteFromPage(mailed, name, email)).searchParams.get("token"),
          password: EMPLOYEE_PASSWORD,
        },
      });
      expect(invitation.status()).toBe(200);
      const { employee: joined } = (await invitation.json()) as { employee: { id: string } };
      expect((await employee.request.get("/v1/sessions/current")).status()).toBe(200);

      // The admin's side: the employee's page, step-up, the link shown once and e-mailed.
      const page = mailed.ownerPage;
      await page.goto(`/employees/${joined.id}`);
      await page.getByRole("button", { name: `Create password reset link for ${name}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Create password reset link" })).toBeVisible();
      await dialog.getByLabel("Authenticator code").fill(await mailed.code());
      await dialog.getByRole("button", { name: "Create link" }).click();
      const shown = (await dialog.getByTestId("password-reset-url").textContent())!;
      expect(shown).toMatch(/\/password-reset\?token=[\w-]{43}$/);
      await expect(dialog.getByTestId("link-emailed")).toHaveText(`It was also e-mailed to ${email}.`);
      await snapAlsoOnPhone(page, testInfo, "1-reset-link-shown-once", "2-reset-link-phone");
      await tickAndClose(page, dialog, "I have copied the link");

      // The employee's side: the e-mailed link, a new password, every old session gone.
      const mail = await mailed.sink.waitFor(email, /Reset your/);
      const link = linkIn(mail);
      expect(link).toBe(shown);
      const reset = await employee.newPage();
      await reset.goto(link);
      await expect(reset.getByRole("heading", { name: "Set a new password" })).toBeVisible();
      await reset.getByLabel("New password").fill("short");
      await reset.getByLabel("Repeat password").fill("short");
      await reset.getByRole("button", { name: "Set password" }).click();
      await expect(reset.getByLabel("New password")).toHaveAttribute("aria-invalid", "true");
      await reset.getByLabel("New password").fill(NEW_PASSWORD);
      await reset.getByLabel("Repeat password").fill(NEW_PASSWORD);
      await snapAlsoOnPhone(reset, testInfo, "3-reset-form", "4-reset-form-phone");
      await reset.getByRole("button", { name: "Set password" }).click();
      await expect(reset.getByRole("status")).toContainText("Your new password is set");
      expect((await employee.request.get("/v1/sessions/current")).status()).toBe(401);
      // Used once: the same link again is refused.
      const again = await employee.request.post("/v1/employees/password_reset/accept", {
        data: { token: new URL(link).searchParams.get("token"), password: "yet another long passphrase" },
      });
      expect(again.status()).toBe(404);

      await reset.getByRole("link", { name: "Sign in" }).click();
      // Where someone who forgot their password starts: the sign-in page says who can help.
      await expect(reset.getByText("Forgot your password? An owner or admin of your platform")).toBeVisible();
      await reset.getByLabel("E-mail").fill(email);
      await reset.getByLabel("Password").fill(EMPLOYEE_PASSWORD);
      await reset.getByRole("button", { name: "Sign in" }).click();
      await expect(reset.locator(".alert.error")).toBeVisible();
      await reset.getByLabel("Password").fill(NEW_PASSWORD);
      await reset.getByRole("button", { name: "Sign in" }).click();
      await expect(reset).not.toHaveURL(/\/login/);
      expect((await employee.request.get("/v1/sessions/current")).status()).toBe(200);
      await snap(reset, testInfo, "5-signed-in-with-new-password");
    } finally {
      await employee.close();
      await stop(mailed);
    }
  });
});
