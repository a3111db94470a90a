import type { APIRequestContext } from "@playwright/test";
import { expect, OWNER, snap, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

async function createAccounts(admin: APIRequestContext, prefix: string, count: number) {
  const ids: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const response = await admin.post("/v1/sandbox/accounts", {
      data: { name: `${prefix} #${String(i).padStart(2, "0")}` },
    });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

test.describe("accounts", () => {
  test("lists the platform's accounts twenty at a time, newest first, with Load more", async ({
    page,
    server,
  }, testInfo) => {
    const prefix = `Paging ${run()}`;
    const ids = await createAccounts(server.admin, prefix, 22);
    await page.goto("/accounts");
    await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();
    // These 22 are the newest accounts, so the first page is 20 of them.
    const ours = page.getByRole("cell", { name: new RegExp(`^${prefix} #\\d+$`) });
    await expect(ours).toHaveCount(20);
    await expect(page.locator("tbody tr")).toHaveCount(20);
    const newest = page.getByRole("row").filter({ hasText: `${prefix} #22` });
    // The id is shortened in the table; the whole id is behind its copy button.
    await expect(newest.getByRole("button", { name: `Copy ${ids[21]!}`, exact: true })).toBeVisible();
    await snap(page, testInfo, "accounts");

    await page.getByRole("button", { name: "Load more" }).click();
    await expect(ours).toHaveCount(22);
    await expect(page.getByRole("row").filter({ hasText: `${prefix} #01` })).toBeVisible();
    // The platform's own account is listed too (older than ours), marked as the platform.
    while (await page.getByRole("button", { name: "Load more" }).isVisible()) {
      const rows = await page.locator("tbody tr").count();
      await page.getByRole("button", { name: "Load more" }).click();
      await expect(page.locator("tbody tr")).not.toHaveCount(rows);
    }
    await expect(page.getByRole("row").filter({ hasText: OWNER.accountName }).getByText("platform")).toBeVisible();
  });

  test("an account's feature flag is saved, kept after a reload, and an API refusal shows next to the flag", async ({
    page,
    server,
  }, testInfo) => {
    const prefix = `Flags ${run()}`;
    const [id] = await createAccounts(server.admin, prefix, 1);
    await page.goto("/accounts");
    const row = page.getByRole("row").filter({ hasText: `${prefix} #01` });
    await expect(row.getByLabel("partner")).toHaveValue("");
    await expect(row.getByLabel("partner").locator("option:checked")).toHaveText("not set");

    await row.getByLabel("partner").selectOption("forbid");
    await row.getByLabel("named").selectOption("prefer");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByRole("status")).toHaveText("Saved");

    await page.reload();
    await expect(row.getByLabel("partner")).toHaveValue("forbid");
    await expect(row.getByLabel("named")).toHaveValue("prefer");
    const listed = (await (await server.admin.get("/v1/accounts")).json()) as {
      id: string;
      featureFlags: Record<string, string>;
    }[];
    expect(listed.find((account) => account.id === id)?.featureFlags).toEqual({ named: "prefer", partner: "forbid" });

    // A value the API refuses (sent by rewriting the request, as a stale or tampered client would): 422 under the flag.
    await page.route(`**/v1/accounts/${id}`, (route) =>
      route.continue({ postData: JSON.stringify({ featureFlags: { named: "prefer", partner: "sometimes" } }) }),
    );
    await row.getByLabel("partner").selectOption("require");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByText("must be one of require, prefer, discourage, forbid")).toBeVisible();
    await expect(row.getByLabel("partner")).toHaveAttribute("aria-invalid", "true");
    await expect(row.getByRole("status")).toHaveCount(0);
    await snap(page, testInfo, "accounts-flag-error");
    await page.unroute(`**/v1/accounts/${id}`);

    // Nothing changed on the server; a plain retry saves.
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByRole("status")).toHaveText("Saved");
    await expect(row.getByLabel("partner")).not.toHaveAttribute("aria-invalid", "true");
    await page.reload();
    await expect(row.getByLabel("partner")).toHaveValue("require");
  });

  test("the own account's flags page saves both flags", async ({ page, server }, testInfo) => {
    await page.goto("/feature-flags");
    await expect(page.getByRole("heading", { name: "Feature flags", level: 1 })).toBeVisible();
    await expect(page.getByText(`Preferences of your own account, ${OWNER.accountName}`)).toBeVisible();
    await page.getByLabel("named").selectOption("require");
    await page.getByLabel("partner").selectOption("discourage");
    await page.getByRole("button", { name: "Save flags" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Feature flags saved." })).toBeVisible();
    await snap(page, testInfo, "feature-flags");

    await page.reload();
    await expect(page.getByLabel("named")).toHaveValue("require");
    await expect(page.getByLabel("partner")).toHaveValue("discourage");
    expect(await (await server.admin.get("/v1/feature_flags")).json()).toEqual({
      named: "require",
      partner: "discourage",
    });

    // A refusal from the API lands under the flag it names.
    await page.route("**/v1/feature_flags", (route) =>
      route.request().method() === "POST"
        ? route.continue({ postData: JSON.stringify({ named: "always" }) })
        : route.continue(),
    );
    await page.getByLabel("named").selectOption("forbid");
    await page.getByRole("button", { name: "Save flags" }).click();
    await expect(page.getByText("must be one of require, prefer, discourage, forbid")).toBeVisible();
    await expect(page.getByLabel("named")).toHaveAttribute("aria-invalid", "true");
    await page.unroute("**/v1/feature_flags");
    expect(await (await server.admin.get("/v1/feature_flags")).json()).toEqual({
      named: "require",
      partner: "discourage",
    });
  });

  test("accounts at phone width", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/accounts");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.locator("tbody tr").first().getByRole("button", { name: "Save" })).toBeVisible();
    await snap(page, testInfo, "accounts-phone");
  });
});
