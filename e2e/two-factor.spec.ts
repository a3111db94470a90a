import { readFile } from "node:fs/promises";
import { generateSync } from "otplib";
import { authenticatorFor, expect, scanQrCode, snap, snapAlsoOnPhone, test } from "./fixtures";

function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 30_000);
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => generateSync({ secret, epoch: (now + offset) * 30 + 1 })));
  return ["000000", "111111", "222222"].find((code) => !valid.has(code))!;
}

// The journey of the issue: a new employee turns on 2FA by scanning the QR code, as a phone would
// (from the pixels on the screen, never from the page's text or the database), then uses the same
// authenticator for the API key actions that need a code.
test("a new employee scans the QR code, turns on 2FA, keeps the recovery codes, then issues and revokes a key with fresh codes", async ({
  page,
  employee,
}, testInfo) => {
  await page.goto("/security");
  const status = page.getByTestId("two-factor-status");
  await expect(status).toHaveText("Off");
  await snapAlsoOnPhone(page, testInfo, "1-security-off", "1-security-off-phone");

  // The session alone is not enough: the current password first. A wrong one is refused under its field.
  const password = page.getByRole("form", { name: "Set up two-factor authentication" }).getByLabel("Current password");
  await password.fill("not my password at all");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAccessibleDescription(/is not your current password/);
  await expect(page.getByTestId("totp-qr")).toHaveCount(0);
  await snapAlsoOnPhone(page, testInfo, "1b-wrong-password", "1b-wrong-password-phone");
  await password.fill(employee.password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const qr = page.getByTestId("totp-qr");
  await expect(qr).toBeVisible();
  await snap(page, testInfo, "2-qr-code");

  // The phone: a picture of the QR code, decoded.
  const uri = await scanQrCode(qr);
  expect(uri.protocol).toBe("otpauth:");
  expect(uri.host).toBe("totp");
  expect(decodeURIComponent(uri.pathname)).toContain(employee.email);
  expect(uri.searchParams.get("digits") ?? "6").toBe("6");
  expect(uri.searchParams.get("period") ?? "30").toBe("30");
  const secret = uri.searchParams.get("secret");
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  const authenticator = authenticatorFor(secret!);

  // A mistyped code is refused next to the field; 2FA stays off.
  const code = page.getByLabel("Authenticator code");
  await code.fill(wrongCode(secret!));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(code).toHaveAccessibleDescription(/That code does not match/);
  await expect(status).toHaveText("Off");
  await snap(page, testInfo, "3-wrong-code");

  await code.fill(await authenticator.next());
  await page.getByRole("button", { name: "Turn on" }).click();

  // The recovery codes, once.
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(page.getByText("you will not see them again")).toBeVisible();
  const shown = await codes.allTextContents();
  expect(new Set(shown).size).toBe(10);
  const download = page.getByRole("link", { name: "Download codes" });
  await expect(download).toHaveAttribute("download", "recovery-codes.txt");
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  const saved = await readFile((await file.path())!, "utf8");
  for (const recoveryCode of shown) expect(saved).toContain(recoveryCode);
  await expect(status).toHaveText("On");
  await expect(page.getByRole("link", { name: "2FA is off" })).toHaveCount(0);
  await snap(page, testInfo, "4-recovery-codes");

  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await page.reload();
  await expect(status).toHaveText("On");
  await expect(page.getByRole("button", { name: "Set up two-factor authentication" })).toHaveCount(0);
  await snap(page, testInfo, "5-security-on");

  // The same authenticator, a fresh code per action.
  const name = `Scanned ${Date.now().toString(36)}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await page.getByRole("button", { name: "Issue key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
  await snap(page, testInfo, "6-issue-key");
  await dialog.getByRole("button", { name: "Issue key" }).click();
  await expect(dialog.getByText("Copy it now: you will not see this key again.")).toBeVisible();
  await expect(dialog.getByTestId("api-key-secret")).toHaveText(/^svc_/);
  await snap(page, testInfo, "7-key-secret");
  await dialog.getByTestId("shown-once-saved").check();
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
  await expect(row).toContainText("active");
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
  await snap(page, testInfo, "8-revoke-key");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("revoked");
  await snap(page, testInfo, "9-key-revoked");
});
