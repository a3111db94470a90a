import type { Page } from "@playwright/test";
import { EMPLOYEE_PASSWORD, expect, OWNER, snap, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });

test.describe("employees", () => {
  test("the list shows everyone with status, 2FA and last sign-in", async ({ page, employee }, testInfo) => {
    await page.goto("/employees");
    await expect(page.getByRole("heading", { name: "Employees" })).toBeVisible();
    const me = rowOf(page, employee.email);
    await expect(me.getByRole("link", { name: employee.name })).toHaveAttribute("href", `/employees/${employee.id}`);
    await expect(me).toContainText("(you)");
    await expect(me).toContainText("active");
    await expect(me.getByRole("cell").nth(3)).toHaveText("Off");
    const owner = rowOf(page, OWNER.email);
    await expect(owner.getByRole("link", { name: OWNER.name })).toBeVisible();
    await snap(page, testInfo, "employees-list");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(me).toBeVisible();
    await snap(page, testInfo, "employees-list-phone");
  });

  test("invites an employee: the link is shown to copy; a taken e-mail is refused under the field; the invitee joins with the link", async ({
    page,
    browser,
    baseURL,
    employee,
  }, testInfo) => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    const name = `Jordan Newcomer ${unique()}`;
    const email = `jordan.${unique()}@acme.example`;
    await page.goto("/employees");
    await page.getByRole("button", { name: "Invite employee" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Invite employee" })).toBeVisible();

    // The API's own schema checks the form first.
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("Name")).toHaveAccessibleDescription(/is required/);
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("E-mail").fill("jordan at acme");
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("E-mail")).toHaveAccessibleDescription(/must be an e-mail address/);

    await dialog.getByLabel("E-mail").fill(email);
    await snap(page, testInfo, "invite-form");
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByRole("heading", { name: "Invitation ready" })).toBeVisible();
    const link = (await dialog.getByTestId("invitation-url").textContent())!;
    expect(link).toMatch(/\/invitations\/accept\?token=[\w-]+$/);
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await snap(page, testInfo, "invite-link");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, email);
    await expect(row).toContainText("invited");
    await expect(row).toContainText("Never");

    // Addresses are unique across the service, whatever their case.
    await page.getByRole("button", { name: "Invite employee" }).click();
    await dialog.getByLabel("Name").fill("Someone Else");
    await dialog.getByLabel("E-mail").fill(employee.email.toUpperCase());
    await dialog.getByRole("button", { name: "Invite" }).click();
    await expect(dialog.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("E-mail")).toHaveAccessibleDescription(/already exists/);
    await snap(page, testInfo, "invite-duplicate");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The invitee, in a browser of their own, follows the link and sets a password.
    const context = await browser.newContext();
    try {
      const invitee = await context.newPage();
      const problems: string[] = [];
      invitee.on("pageerror", (error) => problems.push(error.message));
      invitee.on("console", (message) => {
        if (message.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(message.text());
      });
      // The link points at the address the inviter reached the service at (no APP_ORIGIN here).
      expect(link.startsWith(`${baseURL}/invitations/accept?token=`)).toBe(true);
      await invitee.goto(link);
      await expect(invitee.getByRole("heading", { name: "Join your team" })).toBeVisible();
      await invitee.getByLabel("Password", { exact: true }).fill(EMPLOYEE_PASSWORD);
      await invitee.getByLabel("Repeat password").fill(EMPLOYEE_PASSWORD);
      await snap(invitee, testInfo, "invitation-accept");
      await invitee.getByRole("button", { name: "Activate account" }).click();
      await expect(invitee).toHaveURL(/\/security$/);
      await expect(invitee.getByText("Signed in as")).toContainText(name);
      await expect(invitee.getByTestId("two-factor-status")).toHaveText("Off");
      await snap(invitee, testInfo, "invitee-signed-in");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    await page.reload();
    await expect(rowOf(page, email)).toContainText("active");
  });

  test("the detail page shows one employee and links back", async ({ page, employee }, testInfo) => {
    await page.goto("/employees");
    await page.getByRole("link", { name: employee.name }).click();
    await expect(page).toHaveURL(new RegExp(`/employees/${employee.id}$`));
    await expect(page.getByRole("heading", { name: employee.name })).toBeVisible();
    const details = page.getByRole("region", { name: "Details" });
    await expect(details).toContainText(employee.email);
    await expect(details).toContainText("active");
    await expect(details).toContainText(employee.id);
    await expect(details.getByRole("link", { name: "Set it up" })).toHaveAttribute("href", "/security");
    await snap(page, testInfo, "employee-detail");
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
