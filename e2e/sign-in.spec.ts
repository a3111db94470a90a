import { EMPLOYEE_PASSWORD, enrolTotp, expect, snap, test } from "./fixtures";

test.describe("sign-in with two-factor authentication", () => {
  test("asks for the authenticator code after the password; a wrong code is refused next to the field", async ({
    page,
    employee,
    baseURL,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    await page.goto("/information-requests");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel("E-mail").fill(employee.email);
    await page.getByLabel("Password").fill(employee.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const code = page.getByLabel("Authenticator code");
    await expect(code).toBeVisible();
    await snap(page, testInfo, "second-step");

    const right = await authenticator.next();
    await code.fill(right === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(page.getByText("That code is wrong or was already used")).toBeVisible();
    await expect(code).toHaveAttribute("aria-invalid", "true");

    await code.fill(right);
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(page).toHaveURL(/\/information-requests$/);
    await expect(page.getByText(`Signed in as`)).toContainText(employee.name);
  });

  test("a recovery code signs in once", async ({ page, employee, baseURL, browser }) => {
    const { recoveryCodes } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const signInWithRecoveryCode = async () => {
      const context = await browser.newContext({ baseURL });
      const fresh = await context.newPage();
      await fresh.goto("/login");
      await fresh.getByLabel("E-mail").fill(employee.email);
      await fresh.getByLabel("Password").fill(employee.password);
      await fresh.getByRole("button", { name: "Sign in" }).click();
      await fresh.getByRole("button", { name: "Use a recovery code instead" }).click();
      await fresh.getByLabel("Recovery code").fill(recoveryCodes[0]!);
      await fresh.getByRole("button", { name: "Verify and sign in" }).click();
      return { context, fresh };
    };
    const first = await signInWithRecoveryCode();
    await expect(first.fresh).toHaveURL(/\/information-requests$/);
    await first.context.close();
    const second = await signInWithRecoveryCode();
    await expect(second.fresh.getByText("That recovery code is wrong or was already used")).toBeVisible();
    await second.context.close();
  });

  test("the navigation works by keyboard and at phone width", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/security");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    // At phone width the navigation sits behind "Menu".
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("2FA is off")).toBeVisible();
    await snap(page, testInfo, "security-phone");
  });
});

// Regression (a roles.spec run on a loaded machine): a click on Sign in before React had taken over
// the page submitted the form natively, a GET with the password in the URL, and lost what was typed.
// The server's HTML has the button disabled; the page enables it once it can handle the submit.
test("the sign-in button is disabled in the server's HTML and enabled once the page is live", async ({
  browser,
  baseURL,
}) => {
  // Signed out: a context of its own, without the fixtures' session.
  const context = await browser.newContext({ baseURL });
  try {
    const html = await (await context.request.get("/login")).text();
    expect(html).toMatch(/<button type="submit" class="primary" disabled=""[^>]*>Sign in<\/button>/);
    const page = await context.newPage();
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  } finally {
    await context.close();
  }
});

// The fourth outside attack: `next` was checked before the browser resolved it, so /.//evil.example
// answered `307 Location: //evil.example`, and a real sign-in ended on another site.
test.describe("a sign-in returns only to a page of this site", () => {
  const OFFSITE = ["/.//evil.example", "/..//evil.example/x", "/%2e//evil.example", "/a/..//evil.example"];

  test("a signed-in visit to /login?next=<dot-segment trick> is sent home, never to another host", async ({
    page,
    baseURL,
  }) => {
    for (const next of OFFSITE) {
      const answer = await page.request.get(`/login?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
      expect(answer.status(), next).toBe(307);
      const location = answer.headers()["location"]!;
      expect(location, next).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, baseURL).origin, next).toBe(new URL(baseURL!).origin);
    }
  });

  test("signing in through the form with such a `next` ends on this site", async ({ browser, baseURL, employee }) => {
    const context = await browser.newContext({ baseURL });
    try {
      const page = await context.newPage();
      await page.goto(`/login?next=${encodeURIComponent("/.//evil.example")}`);
      await page.getByLabel("E-mail").fill(employee.email);
      await page.getByLabel("Password").fill(employee.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByText("Signed in as")).toContainText(employee.name);
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    } finally {
      await context.close();
    }
  });
});
