import { expect, snap, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.describe("delegated users", () => {
  test("creates a delegated user; a duplicate or empty external id is refused under the field", async ({
    page,
  }, testInfo) => {
    const externalId = `customer-${run()}`;
    await page.goto("/delegated-users");
    const field = page.getByLabel("External id", { exact: true });
    const create = page.getByRole("button", { name: "Create delegated user" });

    await create.click();
    await expect(page.getByText("must not be empty")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");

    await field.fill(externalId);
    await create.click();
    await expect(page.getByRole("status").filter({ hasText: `Delegated user ${externalId} created` })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: externalId });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(1)).toContainText(/du_[a-z0-9]+/);
    await expect(field).toHaveValue("");

    await field.fill(externalId);
    await create.click();
    await expect(page.getByText("A delegated user with this external id already exists.")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(row).toHaveCount(1);
    await snap(page, testInfo, "delegated-users-duplicate");
  });

  test("search by external id comes from the URL and goes into it; the full list pages with Load more", async ({
    page,
    server,
  }, testInfo) => {
    const prefix = `ext-${run()}`;
    const ids: string[] = [];
    for (let i = 1; i <= 22; i += 1) {
      const response = await server.admin.post("/v1/delegated_users", {
        data: { externalId: `${prefix}-${String(i).padStart(2, "0")}` },
      });
      expect(response.status()).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }

    await page.goto(`/delegated-users?externalId=${prefix}-07`);
    await expect(page.getByRole("searchbox", { name: "Search by external id" })).toHaveValue(`${prefix}-07`);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: `${prefix}-07` })).toContainText(ids[6]!);
    await snap(page, testInfo, "delegated-users-search");

    // Exact match only: a prefix finds nothing, and says so.
    await page.getByRole("searchbox", { name: "Search by external id" }).fill(prefix);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`externalId=${prefix}$`));
    await expect(page.getByText(`No delegated user has the external id "${prefix}".`)).toBeVisible();

    await page.getByRole("button", { name: "Show all" }).click();
    await expect(page).toHaveURL(/\/delegated-users$/);
    await expect(page.getByRole("searchbox", { name: "Search by external id" })).toHaveValue("");
    const ours = page.getByRole("cell", { name: new RegExp(`^${prefix}-\\d+$`) });
    await expect(ours).toHaveCount(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(ours).toHaveCount(22);
    await snap(page, testInfo, "delegated-users");

    // Back in the browser returns to the search in the URL.
    await page.goto(`/delegated-users?externalId=${prefix}-22`);
    await expect(page.locator("tbody tr")).toHaveCount(1);
  });
});
