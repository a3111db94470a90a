import type { APIRequestContext, Page } from "@playwright/test";
import { generateSync } from "otplib";
import type { Role } from "../lib/auth/permissions";
import {
  copyFromDialog,
  EMPLOYEE_PASSWORD,
  enrolTotp,
  expect,
  OWNER,
  setRole,
  snap,
  snapAlsoOnPhone,
  test,
  type Server,
} from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });

/** A six-digit code the server cannot accept right now (none of the steps around now). */
function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 30_000);
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => generateSync({ secret, epoch: (now + offset) * 30 + 1 })));
  return ["000000", "111111", "222222"].find((code) => !valid.has(code))!;
}

/** Nothing wider than a phone's screen: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** Opens the Change role dialog of the employee called `name` from the employees page. */
async function openChangeRole(page: Page, name: string) {
  await page.getByRole("button", { name: `Change role of ${name}` }).click();
  return page.getByRole("dialog");
}

type Colleague = { id: string; name: string; email: string; session?: APIRequestContext };

/**
 * Another employee to act on, invited through the worker's inviter key. With `signedIn`, they accept
 * the invitation in a request context of their own, which then holds their session.
 */
async function colleague(
  server: Server & { inviter: APIRequestContext },
  newContext: () => Promise<APIRequestContext>,
  { role = "viewer", signedIn = false }: { role?: Role; signedIn?: boolean } = {},
): Promise<Colleague> {
  const suffix = unique();
  const name = `Robin Colleague ${suffix}`;
  const email = `robin.${suffix}@acme.example`;
  const invited = await server.inviter.post("/v1/employees", { data: { name, email } });
  expect(invited.status()).toBe(201);
  const { id, invitationUrl } = (await invited.json()) as { id: string; invitationUrl: string };
  if (!signedIn) {
    if (role !== "viewer") setRole(server, id, role);
    return { id, name, email };
  }
  const session = await newContext();
  const accepted = await session.post("/v1/employees/invitations/accept", {
    data: { token: new URL(invitationUrl).searchParams.get("token"), password: EMPLOYEE_PASSWORD },
  });
  expect(accepted.status()).toBe(200);
  // After accepting: a role change ends the invitation link (the employee's security stamp moves).
  if (role !== "viewer") setRole(server, id, role);
  return { id, name, email, session };
}

test.describe("employees", () => {
  test("the list shows everyone with role, status, 2FA and last sign-in, at desktop and phone width", async ({
    page,
    employee,
  }, testInfo) => {
    await page.goto("/employees");
    await expect(page.getByRole("heading", { name: "Employees" })).toBeVisible();
    const me = rowOf(page, employee.email);
    await expect(me.getByRole("link", { name: employee.name })).toHaveAttribute("href", `/employees/${employee.id}`);
    await expect(me).toContainText("(you)");
    await expect(me.getByRole("cell").nth(1)).toHaveText("Admin");
    await expect(me.getByRole("cell").nth(2)).toHaveText("active");
    await expect(me.getByRole("cell").nth(3)).toHaveText("Off");
    // One's own row: a role change, never deactivating oneself or resetting one's own 2FA.
    await expect(me.getByRole("button")).toHaveText(["Change role"]);
    const owner = rowOf(page, OWNER.email);
    await expect(owner.getByRole("link", { name: OWNER.name })).toBeVisible();
    await expect(owner.getByRole("cell").nth(1)).toHaveText("Owner");
    await snap(page, testInfo, "employees-list");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("link", { name: employee.name })).toBeVisible();
    await expect(page.getByRole("button", { name: `Change role of ${employee.name}` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, testInfo, "employees-list-phone");
  });

  test("invites an employee with a role and a code: the link is shown to copy; a taken e-mail is refused under the field; the invitee joins with the link", async ({
    page,
    browser,
    baseURL,
    employee,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    const name = `Jordan Newcomer ${unique()}`;
    const email = `jordan.${unique()}@acme.example`;
    await page.goto("/employees");
    await page.getByRole("button", { name: "Invite employee" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Invite employee" })).toBeVisible();

    // Viewer unless chosen otherwise; an admin cannot make owners, so Owner is not offered.
    const roles = dialog.getByRole("group", { name: "Role" });
    await expect(roles.getByRole("radio")).toHaveCount(4);
    await expect(roles.getByRole("radio", { name: "Viewer" })).toBeChecked();
    await expect(roles.getByRole("radio", { name: "Owner" })).toHaveCount(0);
    await expect(roles.getByRole("radio", { name: "Compliance" })).toHaveAccessibleDescription(
      "Information requests, KYC and delegated users; reads operations",
    );

    // The API's own schemas check the form first, the code included.
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("Name")).toHaveAccessibleDescription(/is required/);
    await expect(dialog.getByLabel("Authenticator code")).toHaveAccessibleDescription(/must be the 6-digit code/);
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("E-mail").fill("jordan at acme");
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("E-mail")).toHaveAccessibleDescription(/must be an e-mail address/);

    await dialog.getByLabel("E-mail").fill(email);
    await roles.getByRole("radio", { name: "Compliance" }).check();
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "invite-form");
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByRole("heading", { name: "Invitation ready" })).toBeVisible();
    await expect(dialog.getByRole("status")).toHaveText(`${name} is invited as Compliance.`);
    const link = (await dialog.getByTestId("invitation-url").textContent())!;
    expect(link).toMatch(/\/invitations\/accept\?token=[\w-]+$/);
    await copyFromDialog(page, dialog, dialog.getByRole("button", { name: "Copy link" }), link);
    await snap(page, testInfo, "invite-link");
    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, email);
    await expect(row).toContainText("invited");
    await expect(row).toContainText("Compliance");
    await expect(row).toContainText("Never");

    // Addresses are unique across the service, whatever their case.
    await page.getByRole("button", { name: "Invite employee" }).click();
    await dialog.getByLabel("Name").fill("Someone Else");
    await dialog.getByLabel("E-mail").fill(employee.email.toUpperCase());
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("E-mail")).toHaveAccessibleDescription(/already exists/);
    await snapAlsoOnPhone(page, testInfo, "invite-duplicate", "invite-form-phone");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The invitee, in a browser of their own, follows the link and sets a password.
    const context = await browser.newContext();
    try {
      const invitee = await context.newPage();
      const problems: string[] = [];
      invitee.on("pageerror", (error) => problems.push(error.message));
      invitee.on("console", (message) => {
        if (
          message.type() === "error" &&
          !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
        )
          problems.push(message.text());
      });
      // The link points at the address the inviter reached the service at (no APP_ORIGIN here).
      expect(link.startsWith(`${baseURL}/invitations/accept?token=`)).toBe(true);
      await invitee.goto(link);
      await expect(invitee.getByRole("heading", { name: "Join your team" })).toBeVisible();
      // A common password: refused by the server, its reason under the field; the link still works after.
      const password = invitee.getByLabel("Password", { exact: true });
      await password.fill("Password1234");
      await invitee.getByLabel("Repeat password").fill("Password1234");
      await invitee.getByRole("button", { name: "Activate account" }).click();
      await expect(password).toHaveAttribute("aria-invalid", "true");
      await expect(password).toHaveAccessibleDescription(/is one of the 100,000 most common passwords; choose another/);
      await snapAlsoOnPhone(invitee, testInfo, "invitation-common-password", "invitation-common-password-phone");
      await password.fill(EMPLOYEE_PASSWORD);
      await invitee.getByLabel("Repeat password").fill(EMPLOYEE_PASSWORD);
      await snap(invitee, testInfo, "invitation-accept");
      await invitee.getByRole("button", { name: "Activate account" }).click();
      await expect(invitee).toHaveURL(/\/security$/);
      await expect(invitee.getByText(/^Signed in as/)).toContainText(name);
      await expect(invitee.getByTestId("two-factor-status")).toHaveText("Off");
      await snap(invitee, testInfo, "invitee-signed-in");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    await page.reload();
    await expect(rowOf(page, email)).toContainText("active");
  });

  test("changes a role with a code; choosing the same role is caught before a code is spent", async ({
    page,
    baseURL,
    server,
    playwright,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const target = await colleague(server, () => playwright.request.newContext({ baseURL }));
    await page.goto("/employees");
    const dialog = await openChangeRole(page, target.name);
    await expect(dialog.getByRole("heading", { name: "Change role" })).toBeVisible();
    await expect(dialog).toContainText(target.email);
    const roles = dialog.getByRole("group", { name: "Role" });
    await expect(roles.getByRole("radio", { name: "Viewer (current)" })).toBeChecked();
    await expect(roles.getByRole("radio", { name: "Owner" })).toHaveCount(0);

    await dialog.getByLabel("Authenticator code").fill("123456");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await expect(roles).toHaveAccessibleDescription(/is already their role/);

    await roles.getByRole("radio", { name: "Developer" }).check();
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snapAlsoOnPhone(page, testInfo, "change-role-dialog", "change-role-dialog-phone");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status")).toHaveText(`${target.name} is now Developer.`);
    await expect(rowOf(page, target.email).getByRole("cell").nth(1)).toHaveText("Developer");
    await snap(page, testInfo, "role-changed");
  });

  test("deactivates someone: a wrong code is refused under the code field, then their sessions end and the list says deactivated", async ({
    page,
    baseURL,
    server,
    playwright,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const leaver = await colleague(
      server,
      () => playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } }),
      { signedIn: true },
    );
    try {
      expect((await leaver.session!.get("/v1/sessions/current")).status()).toBe(200);
      await page.goto("/employees");
      await page.getByRole("button", { name: `Deactivate ${leaver.name}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Deactivate employee" })).toBeVisible();
      await expect(dialog).toContainText(`Deactivate ${leaver.name} (${leaver.email})?`);
      await expect(dialog).toContainText("Every session of theirs ends at once and they can no longer sign in");

      const code = dialog.getByLabel("Authenticator code");
      await code.fill(wrongCode(authenticator.secret));
      await dialog.getByRole("button", { name: "Deactivate" }).click();
      await expect(code).toHaveAttribute("aria-invalid", "true");
      await expect(code).toHaveAccessibleDescription(/The authenticator code is wrong, expired or already used/);
      await snapAlsoOnPhone(page, testInfo, "deactivate-wrong-code", "deactivate-wrong-code-phone");

      await code.fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Deactivate" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("status")).toContainText(`${leaver.name} is deactivated`);
      const row = rowOf(page, leaver.email);
      await expect(row.getByRole("cell").nth(2)).toHaveText("deactivated");
      await expect(row.getByRole("button")).toHaveCount(0);
      await expect(row.getByRole("cell").nth(5)).toContainText("Deactivated");
      await snap(page, testInfo, "deactivated-in-list");

      expect((await leaver.session!.get("/v1/sessions/current")).status()).toBe(401);
      expect(
        (
          await leaver.session!.post("/v1/sessions", { data: { email: leaver.email, password: EMPLOYEE_PASSWORD } })
        ).status(),
      ).toBe(401);

      await row.getByRole("link", { name: leaver.name }).click();
      const details = page.getByRole("region", { name: "Details" });
      await expect(details).toContainText("deactivated");
      await expect(details.getByText("Deactivated", { exact: true })).toBeVisible();
      await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
      await snap(page, testInfo, "deactivated-detail");
    } finally {
      await leaver.session!.dispose();
    }
  });

  test("deactivating lists the key and webhook endpoint the employee made, and with the box ticked revokes them", async ({
    page,
    baseURL,
    server,
    playwright,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const leaver = await colleague(
      server,
      () => playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } }),
      { role: "developer", signedIn: true },
    );
    try {
      // The leaver, before leaving, issues a key and creates an endpoint from their own session.
      const leaversCode = (await enrolTotp(leaver.session!, baseURL!, EMPLOYEE_PASSWORD)).authenticator;
      const keyName = `Payroll sync ${unique()}`;
      const issued = await leaver.session!.post("/v1/api_keys", {
        headers: { "service-totp-code": await leaversCode.next() },
        data: { name: keyName, expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      });
      expect(issued.status()).toBe(201);
      const key = (await issued.json()) as { id: string; prefix: string; secret: string };
      const hookUrl = `https://payroll-${unique()}.example.com/hooks`;
      const hooked = await leaver.session!.post("/v1/webhook_endpoints", {
        headers: { "service-totp-code": await leaversCode.next() },
        data: { url: hookUrl, events: ["transfer.created"] },
      });
      expect(hooked.status()).toBe(201);
      const endpointId = ((await hooked.json()) as { id: string }).id;
      const keyContext = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { authorization: `Bearer ${key.secret}` },
      });
      try {
        expect((await keyContext.get("/v1/api_keys")).status()).toBe(200);

        await page.goto("/employees");
        await page.getByRole("button", { name: `Deactivate ${leaver.name}` }).click();
        const dialog = page.getByRole("dialog");
        const keys = dialog.getByRole("list", { name: "API keys they created" });
        await expect(keys.getByRole("listitem")).toHaveCount(1);
        await expect(keys.getByRole("listitem")).toContainText(keyName);
        await expect(keys.getByRole("listitem")).toContainText(key.prefix);
        await expect(
          dialog.getByRole("list", { name: "Webhook endpoints they created" }).getByRole("listitem"),
        ).toHaveText([hookUrl]);
        const revoke = dialog.getByLabel("Also revoke these keys and disable these endpoints");
        await expect(revoke).toBeChecked();
        await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
        await snapAlsoOnPhone(page, testInfo, "deactivate-with-credentials", "deactivate-with-credentials-phone");
        await dialog.getByRole("button", { name: "Deactivate" }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByRole("status")).toContainText(`${leaver.name} is deactivated`);
        await expect(page.getByRole("status")).toContainText("Revoked 1 API key and 1 webhook endpoint they created.");
        await snap(page, testInfo, "deactivated-with-credentials");

        // The key no longer opens the API; the endpoint is off.
        expect((await keyContext.get("/v1/api_keys")).status()).toBe(401);
        const endpoint = await server.admin.get(`/v1/webhook_endpoints/${endpointId}`);
        expect(((await endpoint.json()) as { enabled: boolean }).enabled).toBe(false);
      } finally {
        await keyContext.dispose();
      }
    } finally {
      await leaver.session!.dispose();
    }
  });

  test("resets another employee's 2FA with a code; one's own is never offered", async ({
    page,
    baseURL,
    server,
    playwright,
    employee,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const locked = await colleague(
      server,
      () => playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } }),
      { signedIn: true },
    );
    try {
      await enrolTotp(locked.session!, baseURL!, EMPLOYEE_PASSWORD);
      await page.goto("/employees");
      await expect(rowOf(page, employee.email).getByRole("cell").nth(3)).toHaveText("On");
      await expect(page.getByRole("button", { name: `Reset 2FA of ${employee.name}` })).toHaveCount(0);
      const row = rowOf(page, locked.email);
      await expect(row.getByRole("cell").nth(3)).toHaveText("On");
      await row.getByRole("button", { name: `Reset 2FA of ${locked.name}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(`Turn off two-factor authentication for ${locked.name}`);
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await snap(page, testInfo, "reset-two-factor-dialog");
      await dialog.getByRole("button", { name: "Reset 2FA" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("status")).toContainText(`Two-factor authentication of ${locked.name} is off`);
      await expect(row.getByRole("cell").nth(3)).toHaveText("Off");
      await expect(row.getByRole("button", { name: `Reset 2FA of ${locked.name}` })).toHaveCount(0);
      expect((await locked.session!.get("/v1/sessions/current")).status()).toBe(401);
    } finally {
      await locked.session!.dispose();
    }
  });

  test("a conflict the API reports (someone deactivated meanwhile) shows as a message in the dialog", async ({
    page,
    baseURL,
    server,
    playwright,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const target = await colleague(server, () => playwright.request.newContext({ baseURL }));
    await page.goto("/employees");
    const dialog = await openChangeRole(page, target.name);
    // Another admin deactivates them while this dialog is open.
    expect((await server.inviter.delete(`/v1/employees/${target.id}`)).status()).toBe(200);
    await dialog.getByRole("radio", { name: "Compliance" }).check();
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Change role" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("This employee is deactivated");
    await expect(dialog.getByLabel("Authenticator code")).not.toHaveAttribute("aria-invalid", "true");
    await snap(page, testInfo, "change-role-conflict");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  test("an admin is offered no action on an owner, and cannot make owners", async ({
    page,
    server,
    playwright,
    baseURL,
  }, testInfo) => {
    const target = await colleague(server, () => playwright.request.newContext({ baseURL }), { role: "developer" });
    await page.goto("/employees");
    const owner = rowOf(page, OWNER.email);
    await expect(owner.getByRole("cell").nth(1)).toHaveText("Owner");
    await expect(owner.getByRole("button")).toHaveCount(0);
    await expect(owner.getByRole("cell").nth(5)).toHaveText("Only owners change owners");
    const dialog = await openChangeRole(page, target.name);
    await expect(dialog.getByRole("radio")).toHaveCount(4);
    await expect(dialog.getByRole("radio", { name: "Owner" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await owner.getByRole("link", { name: OWNER.name }).click();
    await expect(page.getByRole("heading", { name: OWNER.name })).toBeVisible();
    await expect(page.getByRole("region", { name: "Details" })).toContainText("Owner");
    await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
    await expect(page.getByText("Only owners change owners")).toBeVisible();
    await snap(page, testInfo, "owner-seen-by-admin");
  });

  test("the detail page shows one employee, their role and actions, and links back", async ({
    page,
    employee,
  }, testInfo) => {
    await page.goto("/employees");
    await page.getByRole("link", { name: employee.name }).click();
    await expect(page).toHaveURL(new RegExp(`/employees/${employee.id}$`));
    await expect(page.getByRole("heading", { name: employee.name })).toBeVisible();
    const details = page.getByRole("region", { name: "Details" });
    await expect(details).toContainText(employee.email);
    await expect(details).toContainText("Admin — Everything except making or removing owners");
    await expect(details).toContainText("active");
    await expect(details).toContainText(employee.id);
    await expect(details.getByRole("link", { name: "Set it up" })).toHaveAttribute("href", "/security");
    await expect(page.getByRole("button", { name: `Change role of ${employee.name}` })).toBeVisible();
    await expect(page.getByRole("button", { name: `Deactivate ${employee.name}` })).toHaveCount(0);
    await snap(page, testInfo, "employee-detail");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await snap(page, testInfo, "employee-detail-phone");
    await page.getByRole("link", { name: "← All employees" }).click();
    await expect(page).toHaveURL(/\/employees$/);
  });

  test("an unknown employee id shows a not-found state", async ({ page, employee: _ }, testInfo) => {
    await page.goto("/employees/emp_doesnotexist");
    await expect(page.getByRole("heading", { name: "Employee not found" })).toBeVisible();
    await expect(page.getByText("There is no employee with the id emp_doesnotexist")).toBeVisible();
    await snap(page, testInfo, "employee-not-found");
    // Not an employee id at all: the same answer.
    await page.goto("/employees/key_123");
    await expect(page.getByRole("heading", { name: "Employee not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the employees" }).click();
    await expect(page).toHaveURL(/\/employees$/);
  });
});

test.describe("employees, as an owner", () => {
  test.use({ role: "owner" });

  test("an owner may act on owners and make owners", async ({ page, server, playwright, baseURL }, testInfo) => {
    const target = await colleague(server, () => playwright.request.newContext({ baseURL }));
    await page.goto("/employees");
    await expect(page.getByRole("button", { name: `Change role of ${OWNER.name}` })).toBeVisible();
    await expect(page.getByRole("button", { name: `Deactivate ${OWNER.name}` })).toBeVisible();
    const dialog = await openChangeRole(page, target.name);
    await expect(dialog.getByRole("radio")).toHaveCount(5);
    await expect(dialog.getByRole("radio", { name: "Owner" })).toHaveAccessibleDescription(
      "Everything, including owners and platform settings",
    );
    await snap(page, testInfo, "owner-change-role");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Invite employee" }).click();
    await expect(dialog.getByRole("radio", { name: "Owner" })).toBeVisible();
  });
});

test.describe("employees, as a viewer", () => {
  test.use({ role: "viewer" });

  test("a viewer sees everyone but no invite button and no actions", async ({
    page,
    employee,
    server,
    playwright,
    baseURL,
  }, testInfo) => {
    const other = await colleague(server, () => playwright.request.newContext({ baseURL }));
    await page.goto("/employees");
    await expect(rowOf(page, employee.email).getByRole("cell").nth(1)).toHaveText("Viewer");
    await expect(rowOf(page, other.email)).toBeVisible();
    await expect(page.getByRole("button", { name: "Invite employee" })).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
    await snap(page, testInfo, "viewer-list");
    await page.getByRole("link", { name: other.name }).click();
    await expect(page.getByRole("heading", { name: other.name })).toBeVisible();
    await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
  });
});
