import type { APIRequestContext, Page } from "@playwright/test";
import { enrolTotp, expect, snap, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

async function created<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

/** A new sub-account of the test platform, with a request raised in it, and one raised in the platform's own account. */
async function subAccountWithRequest(admin: APIRequestContext) {
  const sub = await created<{ id: string; name: string }>(
    await admin.post("/v1/sandbox/accounts", { data: { name: `Shell Sub ${run()}` } }),
  );
  const subRequest = await created<{ id: string }>(
    await admin.post("/v1/sandbox/information_requests", {
      headers: { "service-account-id": sub.id },
      data: { kind: "endorsement" },
    }),
  );
  const ownRequest = await created<{ id: string }>(
    await admin.post("/v1/sandbox/information_requests", { data: { kind: "endorsement" } }),
  );
  return { sub, subRequest: subRequest.id, ownRequest: ownRequest.id };
}

async function raiseOnReview(admin: APIRequestContext) {
  const onReview = await created<{ id: string }>(
    await admin.post("/v1/sandbox/information_requests", { data: { kind: "due_diligence" } }),
  );
  const moved = await admin.post(`/v1/information_requests/${onReview.id}/status`, { data: { status: "on_review" } });
  expect(moved.status(), await moved.text()).toBe(200);
  const requested = await created<{ id: string }>(
    await admin.post("/v1/sandbox/information_requests", { data: { kind: "due_diligence" } }),
  );
  return { onReview: onReview.id, requested: requested.id };
}

const requestLink = (page: Page, id: string) => page.getByRole("link", { name: id, exact: true });
const accountSelect = (page: Page) => page.getByRole("combobox", { name: "Account" });
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 720 },
  { name: "phone", width: 390, height: 844 },
]) {
  test.describe(`dashboard shell (${viewport.name}, ${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    /** On a phone the switcher and links sit behind "Menu". */
    const openMenu = async (page: Page) => {
      if (viewport.width >= 800) return;
      const menu = page.getByRole("button", { name: "Menu" });
      if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
    };

    test("the account switcher shows a sub-account's requests, keeps ?account= on every link, survives a reload", async ({
      page,
      server,
    }, testInfo) => {
      const { sub, subRequest, ownRequest } = await subAccountWithRequest(server.admin);
      await page.goto("/information-requests");
      await expect(requestLink(page, ownRequest)).toBeVisible();
      await expect(requestLink(page, subRequest)).toHaveCount(0);

      await openMenu(page);
      // Every /v1 call made for the chosen account carries Service-Account-Id.
      const listCall = page.waitForRequest(
        (request) =>
          request.url().includes("/v1/information_requests?") && request.headers()["service-account-id"] === sub.id,
      );
      await accountSelect(page).selectOption({ label: sub.name });
      await listCall;
      await expect(page).toHaveURL(new RegExp(`/information-requests\\?account=${sub.id}$`));
      await expect(requestLink(page, subRequest)).toBeVisible();
      await expect(requestLink(page, ownRequest)).toHaveCount(0);
      await snap(page, testInfo, `switched-${viewport.name}`);

      await page.reload();
      await expect(requestLink(page, subRequest)).toBeVisible();
      await expect(requestLink(page, ownRequest)).toHaveCount(0);
      // With the menu closed, a phone's bar still names the account the page acts for.
      const chosen = page.getByText(`Acting for ${sub.name}`, { exact: true });
      if (viewport.width < 800) await expect(chosen).toBeVisible();
      else await expect(chosen).toBeHidden();
      await openMenu(page);
      await expect(accountSelect(page)).toHaveValue(sub.id);
      // The navigation's links keep the account.
      await expect(mainNav(page).getByRole("link", { name: "KYC", exact: true })).toHaveAttribute(
        "href",
        `/kyc?account=${sub.id}`,
      );

      await requestLink(page, subRequest).click();
      await expect(page).toHaveURL(new RegExp(`/information-requests/${subRequest}\\?account=${sub.id}$`));
      await expect(page.getByRole("heading", { name: "Endorsement request", level: 1 })).toBeVisible();
      await expect(page.getByText(subRequest).first()).toBeVisible();

      // Another page, through the navigation: still the sub-account.
      await openMenu(page);
      await mainNav(page).getByRole("link", { name: "Information requests", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/information-requests\\?account=${sub.id}$`));
      await expect(requestLink(page, subRequest)).toBeVisible();

      // Back to the platform's own account: the parameter goes, the own request is back.
      await openMenu(page);
      await accountSelect(page).selectOption({ index: 0 });
      await expect(page).toHaveURL(/\/information-requests$/);
      await expect(requestLink(page, ownRequest)).toBeVisible();
      await expect(requestLink(page, subRequest)).toHaveCount(0);
    });

    test("a platform-wide page says so under the switcher, and works with an account chosen", async ({
      page,
      server,
    }) => {
      const { sub } = await subAccountWithRequest(server.admin);
      await page.goto(`/employees?account=${sub.id}`);
      await expect(page.getByRole("heading", { name: "Employees", level: 1 })).toBeVisible();
      await expect(page.getByRole("link", { name: "Casey Morgan" })).toBeVisible();
      await openMenu(page);
      await expect(page.getByText("This page covers the whole platform, whichever account is chosen.")).toBeVisible();
    });

    test("the queue's view lives in the URL and survives a reload", async ({ page, server }) => {
      const { onReview, requested } = await raiseOnReview(server.admin);
      const views = page.getByRole("navigation", { name: "Queue views" });
      await page.goto("/information-requests");
      await expect(requestLink(page, requested)).toBeVisible();
      await expect(requestLink(page, onReview)).toBeVisible();
      await views.getByRole("link", { name: "Decided" }).click();
      await expect(page).toHaveURL(/\/information-requests\?view=decided$/);
      await expect(requestLink(page, requested)).toHaveCount(0);
      await page.reload();
      await expect(views.getByRole("link", { name: "Decided" })).toHaveAttribute("aria-current", "page");
      await expect(requestLink(page, onReview)).toHaveCount(0);
      await views.getByRole("link", { name: "All open" }).click();
      await expect(requestLink(page, onReview)).toBeVisible();
    });

    test("a signed-out deep link returns there after sign-in, through the 2FA step, with its filters", async ({
      page,
      server,
      employee,
    }) => {
      const { sub } = await subAccountWithRequest(server.admin);
      const { authenticator } = await enrolTotp(page.request, server.baseURL, employee.password);
      await page.context().clearCookies();
      const deepLink = `/information-requests?view=decided&account=${sub.id}`;
      await page.goto(deepLink);
      await expect(page).toHaveURL(`/login?next=${encodeURIComponent(deepLink)}`);
      await signIn(page, employee.email, employee.password);
      await page.getByLabel("Authenticator code").fill(await authenticator.next());
      await page.getByRole("button", { name: "Verify and sign in" }).click();
      await expect(page).toHaveURL(deepLink);
      await expect(
        page.getByRole("navigation", { name: "Queue views" }).getByRole("link", { name: "Decided" }),
      ).toHaveAttribute("aria-current", "page");
      await openMenu(page);
      await expect(accountSelect(page)).toHaveValue(sub.id);
    });

    test("a bad `next` never leaves the site: sign-in goes to the employee's home instead", async ({
      page,
      employee,
    }) => {
      for (const next of ["//evil.example/information-requests", "https://evil.example/", "/\\evil.example"]) {
        await page.context().clearCookies();
        await page.goto(`/login?next=${encodeURIComponent(next)}`);
        await signIn(page, employee.email, employee.password);
        await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/information-requests$/);
        await expect(page.getByRole("heading", { name: "Information requests", level: 1 })).toBeVisible();
      }
    });

    test("a 401 mid-session (the session ended) goes to sign-in, to come back to the page and its account", async ({
      page,
      server,
      employee,
    }) => {
      const { sub, subRequest } = await subAccountWithRequest(server.admin);
      const detail = `/information-requests/${subRequest}?account=${sub.id}`;
      await page.goto(detail);
      await expect(page.getByRole("heading", { name: "Endorsement request", level: 1 })).toBeVisible();
      // The session ends while the page is open; the next call the page makes answers 401.
      await page.context().clearCookies();
      await page.getByRole("button", { name: "Start review" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Yes, start review" }).click();
      await expect(page).toHaveURL(`/login?next=${encodeURIComponent(detail)}`);
      await signIn(page, employee.email, employee.password);
      await expect(page).toHaveURL(detail);
      await expect(page.getByTestId("request-status")).toHaveText("requested");
    });
  });
}

test.describe("phone menu (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation sits behind Menu: it opens, a link navigates and closes it", async ({ page }, testInfo) => {
    await page.goto("/information-requests");
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    await expect(panel).toBeHidden();
    await expect(mainNav(page)).toBeHidden();
    await snap(page, testInfo, "phone-menu-closed");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(panel).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "KYC", exact: true })).toBeVisible();
    await snap(page, testInfo, "phone-menu-open");
    await mainNav(page).getByRole("link", { name: "KYC", exact: true }).click();
    await expect(page).toHaveURL(/\/kyc$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(mainNav(page)).toBeHidden();
    // Closed, the bar is just the brand and the button, however short the page below it.
    expect((await page.locator(".sidebar").boundingBox())!.height).toBeLessThan(100);
  });
});

test.describe("desktop sidebar (1280 px)", () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test("no Menu button: the switcher and links are always shown; the role is readable and focus visible", async ({
    page,
  }) => {
    await page.goto("/information-requests");
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(mainNav(page).getByRole("link", { name: "KYC", exact: true })).toBeVisible();
    await expect(accountSelect(page)).toBeVisible();
    // The role beside the name: light enough on the dark sidebar (was the page's muted grey, 2.95:1).
    await expect(page.locator(".sidebar .who .role")).toHaveCSS("color", "rgb(182, 191, 204)");
    // A keyboard focus ring on the sidebar: a solid light outline, not the page's faint blue.
    const link = mainNav(page).getByRole("link", { name: "KYC", exact: true });
    await link.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(link).toBeFocused();
    await expect(link).toHaveCSS("outline-style", "solid");
    await expect(link).toHaveCSS("outline-color", "rgb(147, 197, 253)");
  });
});
