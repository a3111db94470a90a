import type { APIRequestContext } from "@playwright/test";
import { expect, snap, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

type VirtualAccount = { id: string; key: string; currency: string };

async function openVirtualAccount(admin: APIRequestContext, key: string, currency = "EUR") {
  const response = await admin.post("/v1/sandbox/virtual_accounts", { data: { key, currency } });
  expect(response.status()).toBe(201);
  return (await response.json()) as VirtualAccount;
}

async function payIn(admin: APIRequestContext, account: VirtualAccount, amount: string, walletAddress?: string) {
  return admin.post(`/v1/sandbox/virtual_accounts/${account.id}/pay_in`, {
    data: { amount, currency: account.currency, walletAddress },
  });
}

test.describe("transactions", () => {
  test("filters by virtual account and wallet address, kept in the URL, and pages with Load more", async ({
    page,
    server,
  }, testInfo) => {
    const tag = run();
    const alpha = await openVirtualAccount(server.admin, `alpha-${tag}`);
    const beta = await openVirtualAccount(server.admin, `beta-${tag}`, "USDC");
    const wallet = `0xwallet${tag}`;
    for (let i = 1; i <= 22; i += 1)
      expect((await payIn(server.admin, alpha, `${i}.50`, i % 2 ? wallet : undefined)).status()).toBe(201);
    expect((await payIn(server.admin, beta, "1000.12345678", wallet)).status()).toBe(201);

    await page.goto("/transactions");
    await expect(page.getByRole("heading", { name: "Transactions", level: 1 })).toBeVisible();
    await expect(page.locator("tbody tr").first()).toBeVisible();

    // By virtual account: 22 rows, twenty at a time.
    await page.getByLabel("Virtual account").selectOption({ label: `alpha-${tag} (EUR)` });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?virtualAccountId=${alpha.id}$`));
    await expect(page.locator("tbody tr")).toHaveCount(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(page.locator("tbody tr")).toHaveCount(22);
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    const amount = page.getByRole("cell", { name: "€21.50", exact: true });
    await expect(amount).toHaveCSS("text-align", "right");
    const row = page.getByRole("row").filter({ has: amount });
    await expect(row.getByText("pay in", { exact: true })).toBeVisible();
    await expect(row.getByText("completed", { exact: true })).toBeVisible();
    await expect(row.getByRole("link", { name: `alpha-${tag}` })).toHaveAttribute(
      "href",
      `/virtual-accounts#${alpha.id}`,
    );
    await snap(page, testInfo, "transactions");

    // Both filters combined, then the wallet alone (which spans both virtual accounts).
    await page.getByLabel("Wallet address").fill(wallet);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`virtualAccountId=${alpha.id}&walletAddress=${wallet}$`));
    await expect(page.locator("tbody tr")).toHaveCount(11);
    await page.getByLabel("Virtual account").selectOption({ label: "Any virtual account" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?walletAddress=${wallet}$`));
    await expect(page.locator("tbody tr")).toHaveCount(12);
    await expect(page.getByRole("cell", { name: "1,000.12345678 USDC", exact: true })).toBeVisible();

    // The URL alone reproduces the view.
    await page.goto(`/transactions?virtualAccountId=${beta.id}&walletAddress=${wallet}`);
    await expect(page.getByLabel("Virtual account")).toHaveValue(beta.id);
    await expect(page.getByLabel("Wallet address")).toHaveValue(wallet);
    await expect(page.locator("tbody tr")).toHaveCount(1);

    // A wallet address with no transactions: the empty state.
    await page.getByLabel("Wallet address").fill(`0xnobody${tag}`);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("No transactions match these filters.")).toBeVisible();

    // Malformed input: refused under the field in the browser, and by the API when it comes in through the URL.
    await page.getByLabel("Wallet address").fill("has space");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("must be a wallet address")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`walletAddress=0xnobody${tag}$`));
    await page.goto("/transactions?walletAddress=has%20space");
    await expect(page.getByLabel("Wallet address")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(".field-error").filter({ hasText: "must be a wallet address" })).toBeVisible();

    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/transactions$/);
    await expect(page.locator("tbody tr").first()).toBeVisible();
  });
});

test.describe("virtual accounts", () => {
  test("deactivating asks first, then shows the account inactive, and the API refuses pay-ins to it", async ({
    page,
    server,
  }, testInfo) => {
    const tag = run();
    const account = await openVirtualAccount(server.admin, `va-${tag}`);
    const other = await openVirtualAccount(server.admin, `keep-${tag}`);
    expect((await payIn(server.admin, account, "5.00")).status()).toBe(201);

    await page.goto("/virtual-accounts");
    const row = page.getByRole("row").filter({ hasText: `va-${tag}` });
    await expect(row.getByText("active", { exact: true })).toBeVisible();
    await snap(page, testInfo, "virtual-accounts");

    // Cancel changes nothing.
    await row.getByRole("button", { name: `Deactivate va-${tag}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Deactivate va-${tag}`);
    await expect(dialog).toContainText("It will refuse every pay-in from now on.");
    await snap(page, testInfo, "virtual-accounts-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText("active", { exact: true })).toBeVisible();
    expect((await payIn(server.admin, account, "1.00")).status()).toBe(201);

    // Escape closes it too.
    await row.getByRole("button", { name: `Deactivate va-${tag}` }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await row.getByRole("button", { name: `Deactivate va-${tag}` }).click();
    await dialog.getByRole("button", { name: "Deactivate", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole("status").filter({ hasText: `Virtual account va-${tag} is deactivated` }),
    ).toBeVisible();
    await expect(row.getByText("inactive", { exact: true })).toBeVisible();
    await expect(row.getByText(/^since /)).toBeVisible();
    await expect(row.getByRole("button", { name: /Deactivate/ })).toHaveCount(0);
    await expect(
      page
        .getByRole("row")
        .filter({ hasText: `keep-${tag}` })
        .getByText("active", { exact: true }),
    ).toBeVisible();

    const refused = await payIn(server.admin, account, "2.00");
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error_code: string }).error_code).toBe("err_conflict");
    expect((await payIn(server.admin, other, "2.00")).status()).toBe(201);

    // Still inactive after a reload; the status filter lives in the URL.
    await page.reload();
    await expect(row.getByText("inactive", { exact: true })).toBeVisible();
    await page.getByLabel("Status").selectOption({ label: "Inactive" });
    await expect(page).toHaveURL(/\?isActive=false$/);
    await expect(row).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: `keep-${tag}` })).toHaveCount(0);
    await page.getByLabel("Status").selectOption({ label: "Active" });
    await expect(page).toHaveURL(/\?isActive=true$/);
    await expect(page.getByRole("row").filter({ hasText: `keep-${tag}` })).toBeVisible();
    await expect(row).toHaveCount(0);

    // Its transactions are one click away.
    await page.goto("/virtual-accounts?isActive=false");
    await row.getByRole("link", { name: `Transactions of va-${tag}` }).click();
    await expect(page).toHaveURL(new RegExp(`/transactions\\?virtualAccountId=${account.id}$`));
    await expect(page.locator("tbody tr")).toHaveCount(2);
  });

  test("the virtual accounts page at phone width", async ({ page, server }, testInfo) => {
    await openVirtualAccount(server.admin, `phone-${run()}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/virtual-accounts");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await snap(page, testInfo, "virtual-accounts-phone");
  });
});

test.describe("recipients", () => {
  test("deleting a recipient asks first, then the row is gone for good", async ({ page, server }, testInfo) => {
    const tag = run();
    const names = [`Ada ${tag}`, `Grace ${tag}`];
    const ids: string[] = [];
    for (const name of names) {
      const response = await server.admin.post("/v1/sandbox/recipients", { data: { name } });
      expect(response.status()).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }
    await page.goto("/recipients");
    await expect(page.getByRole("row").filter({ hasText: names[0]! })).toContainText(ids[0]!);
    await snap(page, testInfo, "recipients");

    await page.getByRole("button", { name: `Delete ${names[0]}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`Delete ${names[0]}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("row").filter({ hasText: names[0]! })).toHaveCount(1);

    await page.getByRole("button", { name: `Delete ${names[0]}` }).click();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: `Recipient ${names[0]} deleted.` })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: names[0]! })).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: names[1]! })).toHaveCount(1);

    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: names[1]! })).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: names[0]! })).toHaveCount(0);
    // Deleted means gone: the API answers 404 for it, and refuses transfers to it.
    expect((await server.admin.delete(`/v1/recipients/${ids[0]}`)).status()).toBe(404);
    expect(
      (
        await server.admin.post("/v1/sandbox/transfers", {
          data: { recipientId: ids[0], amount: "1.00", currency: "EUR" },
        })
      ).status(),
    ).toBe(409);
  });

  test("a recipient deleted elsewhere meanwhile: the refusal shows in the dialog", async ({ page, server }) => {
    const name = `Stale ${run()}`;
    const created = await server.admin.post("/v1/sandbox/recipients", { data: { name } });
    const { id } = (await created.json()) as { id: string };
    await page.goto("/recipients");
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    expect((await server.admin.delete(`/v1/recipients/${id}`)).status()).toBe(200);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(dialog.getByRole("alert")).toContainText("not found");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  });
});
