import type { APIRequestContext, Page } from "@playwright/test";
import { EMPLOYEE_PASSWORD, enrolTotp, expect, OWNER, snap, startServer, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function created<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

/** Demo-like data, so every list is full: accounts, money in three currencies, recipients, requests, users. */
async function seed(admin: APIRequestContext) {
  const tag = run();
  for (const name of [`Northwind Trading GmbH ${tag}`, `Contoso Payments Ltd ${tag}`])
    await created(await admin.post("/v1/sandbox/accounts", { data: { name } }));
  const wallet = `0x${"ab12cd34".repeat(5)}`;
  const pounds = await created<{ id: string }>(
    await admin.post("/v1/sandbox/virtual_accounts", { data: { currency: "GBP", key: `london-treasury-${tag}` } }),
  );
  const euros = await created<{ id: string }>(
    await admin.post("/v1/sandbox/virtual_accounts", { data: { currency: "EUR", key: `berlin-ops-${tag}` } }),
  );
  for (const [account, amount, currency] of [
    [pounds, "23726.74", "GBP"],
    [pounds, "1250000.5", "GBP"],
    [euros, "980.10", "EUR"],
  ] as const)
    await created(
      await admin.post(`/v1/sandbox/virtual_accounts/${account.id}/pay_in`, {
        data: { amount, currency, walletAddress: wallet },
      }),
    );
  const recipient = await created<{ id: string }>(
    await admin.post("/v1/sandbox/recipients", { data: { name: `Fabrikam Logistics ${tag}` } }),
  );
  const transfer = await created<{ id: string }>(
    await admin.post("/v1/sandbox/transfers", {
      data: { recipientId: recipient.id, amount: "4200.00", currency: "EUR" },
    }),
  );
  const submission = await created<{ id: string }>(
    await admin.post("/v1/sandbox/kyc/submissions", {
      data: {
        type: "business",
        beneficiaries: [{ type: "individual", country: "DE", roles: ["ubo"], shareSize: 100, name: "Greta Graf" }],
      },
    }),
  );
  await created(
    await admin.post("/v1/sandbox/information_requests", {
      data: { kind: "due_diligence", transferId: transfer.id },
    }),
  );
  await created(
    await admin.post("/v1/sandbox/information_requests", {
      data: { kind: "endorsement", submissionId: submission.id },
    }),
  );
  await created(await admin.post("/v1/delegated_users", { data: { externalId: `customer-${tag}` } }));
}

const pages = [
  "/information-requests",
  "/kyc",
  "/transactions",
  "/virtual-accounts",
  "/recipients",
  "/delegated-users",
  "/accounts",
  "/feature-flags",
  "/api-keys",
  "/webhooks",
  "/employees",
  "/audit-log",
  "/settings",
  "/security",
];

/** Opens a dashboard page and waits until its lists have loaded. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toHaveCount(0);
}

const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe("dashboard formats, in New York", () => {
  test.use({ timezoneId: "America/New_York", viewport: { width: 1280, height: 800 } });

  test("no dashboard page scrolls sideways at 1280 or 390 px; tables scroll in their own named region", async ({
    page,
    server,
  }, testInfo) => {
    await seed(server.admin);
    for (const path of pages) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await open(page, path);
      expect(await pageScrollsSideways(page), `${path} scrolls sideways at 1280 px`).toBe(false);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await pageScrollsSideways(page), `${path} scrolls sideways at 390 px`).toBe(false);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, "/transactions");
    const region = page.getByRole("region", { name: "Transactions" });
    await expect(region).toHaveAttribute("tabindex", "0");
    await expect(region).toHaveCSS("overflow-x", "auto");
    // The first column stays in view while the rest scroll.
    await expect(region.locator("tbody td").first()).toHaveCSS("position", "sticky");
    await snap(page, testInfo, "transactions-1280");
  });

  test("date-times carry the reader's zone; amounts are grouped in their currency; long ids are shortened with a copy button", async ({
    page,
    server,
  }) => {
    await seed(server.admin);
    await open(page, "/transactions");
    const times = page.locator("main time");
    await expect(times.first()).toBeVisible();
    // After hydration, every date-time is New York's, named, on one line.
    await expect
      .poll(async () => (await times.allTextContents()).every((text) => /\b(EST|EDT)$/.test(text)))
      .toBe(true);
    await expect(times.first()).toHaveCSS("white-space", "nowrap");
    const iso = await times.first().getAttribute("title");
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    await expect(page.getByRole("cell", { name: "£23,726.74", exact: true }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "£1,250,000.50", exact: true }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "€980.10", exact: true }).first()).toBeVisible();

    const firstRow = page.locator("tbody tr").first();
    const copy = firstRow.getByRole("button", { name: /^Copy txn_/ });
    await expect(copy).toBeVisible();
    const id = (await copy.getAttribute("aria-label"))!.replace("Copy ", "");
    // Shown shortened (the whole id is for screen readers and on hover).
    const visible = firstRow.getByTitle(id).locator('[aria-hidden="true"]');
    await expect(visible).toHaveText(`${id.slice(0, 8)}…${id.slice(-4)}`);
    await expect(firstRow.getByTitle(id)).toBeVisible();

    for (const path of ["/audit-log", "/information-requests", "/virtual-accounts", "/recipients"]) {
      await open(page, path);
      // An age ("3 d", the queue's) is a duration, not a date-time: it has no zone.
      const shown = page.locator("main time:not(.age)");
      await expect(page.locator("main tbody tr").first()).toBeVisible();
      await expect
        .poll(async () => (await shown.allTextContents()).filter((text) => !/\b(EST|EDT)$/.test(text)), {
          message: `date-times on ${path} without New York's zone`,
        })
        .toEqual([]);
    }
  });

  test("a key's expiry shows as the day that was picked, not the evening before in New York", async ({
    page,
    baseURL,
  }) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const day = utcDay(45);
    const name = `Expiry ${run()}`;
    // What the form sends for a picked day (components/api-keys/key-form.ts): 00:00 UTC of that day.
    await created(
      await page.request.post("/v1/api_keys", {
        headers: { origin: baseURL!, "service-totp-code": await authenticator.next() },
        data: { name, expiresAt: `${day}T00:00:00.000Z` },
      }),
    );
    const [year, month, date] = day.split("-").map(Number) as [number, number, number];
    const picked = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(
      new Date(year, month - 1, date),
    );
    await open(page, "/api-keys");
    const row = page.getByRole("row").filter({ hasText: name });
    const expires = row.locator('td[data-label="Expires"] time');
    await expect(expires).toHaveText(picked);
    await expect(expires).toHaveAttribute("title", `${day}T00:00:00.000Z`);
    // The key's creation, a moment rather than a picked day, still shows with New York's zone.
    await expect(row.getByTestId("key-created").locator("time")).toHaveText(/\b(EST|EDT)$/);
  });

  test("on a fresh platform every empty list says what fills it and links to the way there", async ({ browser }) => {
    const fresh = await startServer();
    const context = await browser.newContext({ baseURL: fresh.baseURL });
    try {
      const page = await context.newPage();
      const setup = await context.request.post("/v1/setup", { data: OWNER, headers: { origin: fresh.baseURL } });
      expect(setup.status()).toBe(201);
      for (const [path, text] of [
        ["/transactions", "No transactions yet."],
        ["/virtual-accounts", "No virtual accounts yet."],
        ["/recipients", "No saved recipients."],
        ["/information-requests", "No open information requests."],
        ["/kyc", "No KYC submissions yet."],
        ["/api-keys", "No API keys yet."],
      ] as const) {
        await page.goto(path);
        const empty = page.locator(".empty").filter({ hasText: text });
        await expect(empty, path).toBeVisible();
        await expect(empty.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
      }
      // Where the dashboard itself creates one, the empty state offers that action.
      await page.locator(".empty").getByRole("button", { name: "Issue one" }).click();
      await expect(page.getByRole("dialog").getByRole("heading", { name: "Issue API key" })).toBeVisible();
      await page.goto("/webhooks");
      await page.locator(".empty").getByRole("button", { name: "Add one" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    } finally {
      await context.close();
      await fresh.stop();
    }
  });
});
