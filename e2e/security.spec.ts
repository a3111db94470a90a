import type { Browser, Page } from "@playwright/test";
import { generateSync } from "otplib";
import { EMPLOYEE_PASSWORD, enrolTotp, expect, snap, snapAlsoOnPhone, test } from "./fixtures";

/** Signs the same employee in from another browser (cookies of its own): a second session. */
async function signInElsewhere(browser: Browser, baseURL: string, email: string) {
  const context = await browser.newContext({ baseURL });
  const signedIn = await context.request.post("/v1/sessions", {
    headers: { origin: baseURL },
    data: { email, password: EMPLOYEE_PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  const page = await context.newPage();
  await page.goto("/security");
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  return { context, page };
}

/** A browser whose session was ended lands on the sign-in page at its next navigation. */
async function expectSignedOut(page: Page) {
  await page.goto("/security");
  await expect(page).toHaveURL(/\/login\?next=%2Fsecurity$/);
}

/** Signs in through the sign-in page of a fresh browser, with a recovery code as the second step. */
async function signInWithRecoveryCode(browser: Browser, baseURL: string, email: string, recoveryCode: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(EMPLOYEE_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCode);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  return { context, page };
}

/** A code the server refuses now (not one of the window's valid codes). */
function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 30_000);
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => generateSync({ secret, epoch: (now + offset) * 30 + 1 })));
  return ["000000", "111111", "222222"].find((code) => !valid.has(code))!;
}

test("changing the password: the current one is checked, the other browser is signed out, the new one signs in", async ({
  page,
  employee,
  browser,
  baseURL,
}, testInfo) => {
  const elsewhere = await signInElsewhere(browser, baseURL!, employee.email);
  await page.goto("/security");
  const form = page.getByRole("form", { name: "Change password" });
  const current = form.getByLabel("Current password");
  const next = form.getByLabel("New password", { exact: true });
  const repeat = form.getByLabel("Repeat new password");
  const submit = form.getByRole("button", { name: "Change password" });
  const newPassword = "a different passphrase entirely";

  // The repeat is checked in the browser, before anything is sent.
  await current.fill(employee.password);
  await next.fill(newPassword);
  await repeat.fill(`${newPassword}!`);
  await submit.click();
  await expect(repeat).toHaveAttribute("aria-invalid", "true");
  await expect(repeat).toHaveAccessibleDescription(/does not match the new password/);

  // A common new password: only the server has the list, and its reason shows under the field.
  await next.fill("Password1234");
  await repeat.fill("Password1234");
  await submit.click();
  await expect(next).toHaveAttribute("aria-invalid", "true");
  await expect(next).toHaveAccessibleDescription(/is one of the 100,000 most common passwords; choose another/);
  await snapAlsoOnPhone(page, testInfo, "0-common-password", "0-common-password-phone");
  await next.fill(newPassword);

  // A wrong current password: the API's refusal, under its field.
  await current.fill("not my password at all");
  await repeat.fill(newPassword);
  await submit.click();
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(current).toHaveAccessibleDescription(/is not your current password/);
  await expect(repeat).not.toHaveAttribute("aria-invalid", "true");
  await snap(page, testInfo, "1-wrong-current-password");

  await current.fill(employee.password);
  await submit.click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toHaveText(
    "Password changed. 1 other session was signed out.",
  );
  await expect(current).toHaveValue("");
  await expect(current).not.toHaveAttribute("aria-invalid", "true");
  await snap(page, testInfo, "2-password-changed");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "3-password-changed-phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  await expectSignedOut(elsewhere.page);
  await elsewhere.context.close();

  // This browser stayed signed in; after signing out, only the new password works.
  await page.goto("/security");
  await expect(page).toHaveURL(/\/security$/);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("E-mail").fill(employee.email);
  await page.getByLabel("Password").fill(employee.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("The e-mail address or password is wrong")).toBeVisible();
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/information-requests$/);
  await expect(page.getByText("Signed in as")).toContainText(employee.name);
});

test("sessions: another browser appears in the list, End signs it out, and so does signing out all other sessions", async ({
  page,
  employee,
  browser,
  baseURL,
}, testInfo) => {
  await page.goto("/security");
  const section = page.getByRole("region", { name: "Sessions" });
  const rows = section.locator("tbody tr");
  const signOutOthers = section.getByRole("button", { name: "Sign out all other sessions" });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("This device");
  await expect(rows.first().getByRole("button")).toHaveCount(0);
  await expect(signOutOthers).toBeDisabled();

  const first = await signInElsewhere(browser, baseURL!, employee.email);
  await page.reload();
  await expect(rows).toHaveCount(2);
  const other = rows.filter({ hasNotText: "This device" });
  await expect(other).toHaveCount(1);
  await snap(page, testInfo, "1-two-sessions");
  await other.getByRole("button", { name: /^End the session started/ }).click();
  await expect(section.getByRole("status")).toHaveText("Session ended: that browser is signed out.");
  await expect(rows).toHaveCount(1);
  await expectSignedOut(first.page);
  await first.context.close();

  const second = await signInElsewhere(browser, baseURL!, employee.email);
  const third = await signInElsewhere(browser, baseURL!, employee.email);
  await page.reload();
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "This device" })).toHaveCount(1);
  await snapAlsoOnPhone(page, testInfo, "2-three-sessions", "3-three-sessions-phone");

  await signOutOthers.click();
  await expect(section.getByRole("status")).toHaveText("2 other sessions were signed out.");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("This device");
  await expect(signOutOthers).toBeDisabled();
  await snap(page, testInfo, "4-others-signed-out");
  await expectSignedOut(second.page);
  await expectSignedOut(third.page);
  await second.context.close();
  await third.context.close();

  // This browser is still signed in.
  await page.reload();
  await expect(page).toHaveURL(/\/security$/);
  await expect(rows).toHaveCount(1);
});

test("new recovery codes need an authenticator code, are shown once, and replace the old ones", async ({
  page,
  employee,
  browser,
  baseURL,
}, testInfo) => {
  const { authenticator, recoveryCodes: oldCodes } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
  await page.goto("/security");
  const section = page.getByRole("region", { name: "Recovery codes" });
  await section.getByRole("button", { name: "Generate new recovery codes" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toHaveAccessibleName("Generate new recovery codes");
  const code = dialog.getByLabel("Authenticator code");

  await code.fill(wrongCode(authenticator.secret));
  await dialog.getByRole("button", { name: "Generate codes" }).click();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(code).toHaveAccessibleDescription(/wrong, expired or already used/);
  await snap(page, testInfo, "1-wrong-code");

  await code.fill(await authenticator.next());
  await dialog.getByRole("button", { name: "Generate codes" }).click();
  await expect(dialog).toHaveAccessibleName("Your new recovery codes");
  const shown = dialog.getByRole("list", { name: "New recovery codes" }).getByRole("listitem");
  await expect(shown).toHaveCount(10);
  const newCodes = await shown.allTextContents();
  expect(new Set(newCodes).size).toBe(10);
  for (const old of oldCodes) expect(newCodes).not.toContain(old);
  await expect(dialog.getByText("Your old recovery codes no longer work.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Copy codes" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Download codes" })).toHaveAttribute("download", "recovery-codes.txt");
  await snapAlsoOnPhone(page, testInfo, "2-new-codes", "3-new-codes-phone");

  await dialog.getByTestId("shown-once-saved").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole("status")).toHaveText(
    "New recovery codes are in use; the previous ones no longer work.",
  );
  await expect(page.getByRole("list", { name: "New recovery codes" })).toHaveCount(0);
  await snap(page, testInfo, "4-replaced");

  // An old code no longer signs in; a new one does.
  const withOld = await signInWithRecoveryCode(browser, baseURL!, employee.email, oldCodes[0]!);
  await expect(withOld.page.getByText("That recovery code is wrong or was already used")).toBeVisible();
  await withOld.context.close();
  const withNew = await signInWithRecoveryCode(browser, baseURL!, employee.email, newCodes[0]!);
  await expect(withNew.page).toHaveURL(/\/information-requests$/);
  await withNew.context.close();
});
