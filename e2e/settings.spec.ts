import type { APIRequestContext, Browser } from "@playwright/test";
import { authenticatorFor, EMPLOYEE_PASSWORD, enrolTotp, expect, snap, test, type Server } from "./fixtures";

type Authenticator = ReturnType<typeof authenticatorFor>;

/**
 * Puts both settings back to their defaults through the API. The server is shared by the later
 * tests of this worker, which expect a platform without either rule.
 */
async function restoreDefaults(request: APIRequestContext, baseURL: string, authenticator: Authenticator) {
  const response = await request.post(`${baseURL}/v1/settings`, {
    headers: { origin: baseURL, "service-totp-code": await authenticator.next() },
    data: { requireTwoFactor: false, fourEyesApproval: false },
  });
  expect(response.status()).toBe(200);
}

/** A colleague without 2FA, signed in in a browser of their own. */
async function colleagueWithout2fa(server: Server & { inviter: APIRequestContext }, browser: Browser) {
  const suffix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const invited = await server.inviter.post("/v1/employees", {
    data: { name: `Robin Colleague ${suffix}`, email: `robin.${suffix}@acme.example` },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl } = (await invited.json()) as { invitationUrl: string };
  const context = await browser.newContext({ baseURL: server.baseURL });
  const accepted = await context.request.post("/v1/employees/invitations/accept", {
    data: { token: new URL(invitationUrl).searchParams.get("token"), password: EMPLOYEE_PASSWORD },
  });
  expect(accepted.status()).toBe(200);
  return { context, page: await context.newPage() };
}

test("an admin turns on four-eyes approval with an authenticator code", async ({ page, baseURL }, testInfo) => {
  const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
  let restored = false;
  try {
    await page.goto("/settings");
    await expect(page).toHaveTitle(/^Settings/);
    const form = page.getByRole("form", { name: "Platform settings" });
    const fourEyes = form.getByRole("switch", { name: "Four-eyes approval" });
    const save = form.getByRole("button", { name: "Save settings" });
    await expect(fourEyes).not.toBeChecked();
    await expect(fourEyes).toHaveAccessibleDescription(/cannot approve or reject it/);
    await expect(form.getByRole("switch", { name: "Require two-factor authentication" })).toHaveAccessibleDescription(
      /can only set it up/,
    );
    await expect(save).toBeDisabled();
    await snap(page, testInfo, "1-settings");

    await fourEyes.check();
    await expect(save).toBeEnabled();
    await save.click();
    const dialog = page.getByRole("dialog", { name: "Save settings" });
    await expect(dialog.getByRole("list", { name: "Changes" })).toHaveText("Turn on four-eyes approval");
    const code = await authenticator.next();
    await dialog.getByLabel("Authenticator code").fill(code);
    await snap(page, testInfo, "2-save-dialog");
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status")).toHaveText(/^Settings saved\./);
    await expect(page.getByTestId("setting-fourEyesApproval-state")).toHaveText("On");
    await expect(save).toBeDisabled();
    await snap(page, testInfo, "3-saved");

    const stored = await page.request.get(`${baseURL}/v1/settings`);
    expect(await stored.json()).toEqual({
      requireTwoFactor: false,
      fourEyesApproval: true,
      slaHours: { due_diligence: null, endorsement: null },
      defaultKeyRateLimit: { requests: 100, perSeconds: 1 },
      retention: { webhookPayloadDays: 30, sessionDays: 30, recordsYears: 5 },
      sso: null,
    });
    await page.reload();
    await expect(fourEyes).toBeChecked();
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, testInfo, "4-saved-phone");
    await page.setViewportSize({ width: 1280, height: 720 });

    // A code already used is refused under the field; the setting stays on.
    await fourEyes.uncheck();
    await save.click();
    await dialog.getByLabel("Authenticator code").fill(code);
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await expect(dialog.getByLabel("Authenticator code")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Authenticator code")).toHaveAccessibleDescription(/wrong, expired or already used/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("setting-fourEyesApproval-state")).toHaveText("On");

    await restoreDefaults(page.request, baseURL!, authenticator);
    restored = true;
  } finally {
    if (!restored) await restoreDefaults(page.request, baseURL!, authenticator);
  }
});

test("requiring two-factor authentication sends a colleague without it to Security, until the rule is turned off", async ({
  page,
  baseURL,
  browser,
  server,
}, testInfo) => {
  const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
  let restored = false;
  try {
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Platform settings" });
    const requireTwoFactor = form.getByRole("switch", { name: "Require two-factor authentication" });
    await requireTwoFactor.check();
    await form.getByRole("button", { name: "Save settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Save settings" });
    await expect(dialog.getByRole("list", { name: "Changes" })).toHaveText("Turn on require two-factor authentication");
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Settings saved\./);
    await expect(page.getByTestId("setting-requireTwoFactor-state")).toHaveText("On");

    // The admin has 2FA: every page stays open to them.
    await page.goto("/information-requests");
    await expect(page).toHaveURL(/\/information-requests$/);

    const colleague = await colleagueWithout2fa(server, browser);
    await colleague.page.goto("/information-requests");
    await expect(colleague.page).toHaveURL(/\/security$/);
    await expect(
      colleague.page.getByText("Your platform requires two-factor authentication. Set it up below"),
    ).toBeVisible();
    await expect(colleague.page.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
    await expect(colleague.page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Security"]);
    // The rest of the page would only be refused by the API until they enrol.
    await expect(colleague.page.getByRole("region", { name: "Sessions" })).toHaveCount(0);
    await expect(colleague.page.getByRole("region", { name: "Password" })).toHaveCount(0);
    await snap(colleague.page, testInfo, "1-colleague-sent-to-security");
    await colleague.page.setViewportSize({ width: 390, height: 844 });
    await snap(colleague.page, testInfo, "2-colleague-sent-to-security-phone");

    // Turned off again through the page: the colleague is free to go anywhere.
    await page.goto("/settings");
    await requireTwoFactor.uncheck();
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(dialog.getByRole("list", { name: "Changes" })).toHaveText(
      "Turn off require two-factor authentication",
    );
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Settings saved\./);
    await expect(page.getByTestId("setting-requireTwoFactor-state")).toHaveText("Off");
    restored = true;

    await colleague.page.goto("/information-requests");
    await expect(colleague.page).toHaveURL(/\/information-requests$/);
    await colleague.context.close();
  } finally {
    if (!restored) await restoreDefaults(page.request, baseURL!, authenticator);
  }
});

test.describe("as a viewer", () => {
  test.use({ role: "viewer" });

  test("the settings are shown read-only, with who may change them", async ({ page }, testInfo) => {
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Platform settings" });
    await expect(form.getByRole("note")).toHaveText(
      "Your role can see these settings; only owners and admins change them.",
    );
    await expect(page.getByRole("form", { name: "Single sign-on" }).getByRole("note")).toHaveText(
      "Only owners set up single sign-on.",
    );
    for (const name of ["Require two-factor authentication", "Four-eyes approval"]) {
      await expect(form.getByRole("switch", { name })).toBeDisabled();
      await expect(form.getByRole("switch", { name })).not.toBeChecked();
    }
    await expect(page.getByTestId("setting-requireTwoFactor-state")).toHaveText("Off");
    await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
    const retention = page.getByRole("form", { name: "Retention" });
    await expect(retention.getByRole("note")).toHaveText("Only owners change how long data is kept.");
    await expect(retention.getByLabel("Ended sessions (days)")).toBeDisabled();
    await expect(retention.getByLabel("Ended sessions (days)")).toHaveValue("30");
    await snap(page, testInfo, "1-read-only");
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, testInfo, "2-read-only-phone");
  });
});

test.describe("as an owner", () => {
  test.use({ role: "owner" });

  test("an owner sets how long data is kept; a value out of range is refused before a code is asked", async ({
    page,
    baseURL,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const putBack = () =>
      authenticator.next().then((code) =>
        page.request.post(`${baseURL}/v1/settings`, {
          headers: { origin: baseURL!, "service-totp-code": code },
          data: { retention: { webhookPayloadDays: 30, sessionDays: 30, recordsYears: 5 } },
        }),
      );
    try {
      await page.goto("/settings");
      const form = page.getByRole("form", { name: "Retention" });
      const sessions = form.getByLabel("Ended sessions (days)");
      await expect(sessions).toHaveValue("30");
      await expect(form.getByRole("listitem").filter({ hasText: "Closed accounts' records" })).toHaveText(
        /the legal hold: a closed account's personal data may be erased only once this has passed/,
      );
      await expect(form.getByLabel("Closed accounts' records (years)")).toHaveAccessibleDescription("1 to 10 years.");
      await sessions.fill("400");
      await form.getByRole("button", { name: "Save retention" }).click();
      await expect(sessions).toHaveAccessibleDescription(/Enter whole days from 1 to 365\./);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await sessions.fill("45");
      await form.getByRole("button", { name: "Save retention" }).click();
      const dialog = page.getByRole("dialog", { name: "Save settings" });
      await expect(dialog.getByRole("list", { name: "Changes" })).toHaveText(
        "Keep webhook payloads 30 days, ended sessions 45 days, closed accounts' records 5 years",
      );
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Save settings" }).click();
      await expect(dialog).toBeHidden();
      await expect(form.getByRole("status")).toHaveText(/^Retention saved\./);
      await snap(page, testInfo, "1-retention-saved");
      const stored = (await (await page.request.get(`${baseURL}/v1/settings`)).json()) as { retention: unknown };
      expect(stored.retention).toEqual({ webhookPayloadDays: 30, sessionDays: 45, recordsYears: 5 });
      await page.setViewportSize({ width: 390, height: 844 });
      await form.scrollIntoViewIfNeeded();
      await snap(page, testInfo, "2-retention-phone");
    } finally {
      expect((await putBack()).status()).toBe(200);
    }
  });
});
