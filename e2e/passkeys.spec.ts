import type { CDPSession, Page } from "@playwright/test";
import { enrolTotp, expect, snapAlsoOnPhone, test } from "./fixtures";

/**
 * A platform authenticator in the browser (Chromium's CDP virtual authenticator): resident keys,
 * user verification that always succeeds, as a laptop's fingerprint reader would.
 */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

// WebAuthn refuses an IP address as the relying party's id: the journey uses the server by name.
const byName = (baseURL: string) => baseURL.replace("127.0.0.1", "localhost");

test("an employee registers a passkey, signs in with it, steps up with it and removes it", async ({
  page,
  server,
  employee,
}, testInfo) => {
  const origin = byName(server.baseURL);
  // Signed in at `origin` (the fixture's cookie is for 127.0.0.1), with 2FA: adding a passkey needs a code.
  const signedIn = await page.request.post(`${origin}/v1/sessions`, {
    headers: { origin },
    data: { email: employee.email, password: employee.password },
  });
  expect(signedIn.status()).toBe(200);
  const { authenticator } = await enrolTotp(page.request, origin, employee.password);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  // Register: a name and a code, then the browser's ceremony.
  await page.goto(`${origin}/security`);
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("No passkeys yet.")).toBeVisible();
  await section.getByRole("button", { name: "Add a passkey" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add a passkey" });
  await addDialog.getByLabel("Name").fill("Work laptop");
  await addDialog.getByLabel("Authenticator code").fill(await authenticator.next());
  await addDialog.getByRole("button", { name: "Add passkey" }).click();
  await expect(addDialog).toBeHidden();
  const row = section.getByRole("row", { name: /Work laptop/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Never");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await snapAlsoOnPhone(page, testInfo, "1-security-passkey", "1-security-passkey-phone");

  // Sign in: the password, then "Use a passkey" in place of the code.
  await page.context().clearCookies();
  await page.goto(`${origin}/login`);
  await page.getByLabel("E-mail").fill(employee.email);
  await page.getByLabel("Password").fill(employee.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const usePasskey = page.getByRole("button", { name: "Use a passkey", exact: true });
  await expect(usePasskey).toBeVisible();
  await snapAlsoOnPhone(page, testInfo, "2-sign-in-second-step", "2-sign-in-second-step-phone");
  await usePasskey.click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${origin}/security`);
  await expect(row).toBeVisible();
  await expect(row).not.toContainText("Never");

  // Step up and remove: the passkey beside the code field stands in for the code.
  await row.getByRole("button", { name: "Remove the passkey Work laptop" }).click();
  const removeDialog = page.getByRole("dialog", { name: "Remove passkey" });
  await expect(removeDialog.getByRole("button", { name: "Use a passkey instead" })).toBeVisible();
  await snapAlsoOnPhone(page, testInfo, "3-remove-dialog", "3-remove-dialog-phone");
  await removeDialog.getByRole("button", { name: "Use a passkey instead" }).click();
  await expect(removeDialog).toBeHidden();
  await expect(section.getByText("No passkeys yet.")).toBeVisible();
  await expect(section.getByRole("status")).toHaveText("Passkey “Work laptop” removed.");

  // Removed means refused: the authenticator still holds the credential, the service no longer knows it.
  await page.context().clearCookies();
  await page.goto(`${origin}/login`);
  await page.getByLabel("E-mail").fill(employee.email);
  await page.getByLabel("Password").fill(employee.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await usePasskey.click();
  await expect(page.getByRole("alert").filter({ hasText: "The passkey was not accepted" })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
