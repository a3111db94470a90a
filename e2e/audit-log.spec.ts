import { readFileSync } from "node:fs";
import { expect, snap, test } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.describe("audit log", () => {
  test("what the employee just did shows with the right actor and outcome; filters come from the URL", async ({
    page,
    server,
    employee,
    baseURL,
  }, testInfo) => {
    const externalId = `audited-${run()}`;
    const headers = { origin: baseURL! };
    // Through the browser's own session: one success, one refusal (duplicate → 409).
    const created = await page.request.post("/v1/delegated_users", { headers, data: { externalId } });
    expect(created.status()).toBe(201);
    const user = (await created.json()) as { id: string };
    expect((await page.request.post("/v1/delegated_users", { headers, data: { externalId } })).status()).toBe(409);
    // One for a sub-account (Service-Account-Id): the record names the account acted for.
    const sub = (await (
      await server.admin.post("/v1/sandbox/accounts", { data: { name: `Audited sub ${run()}` } })
    ).json()) as { id: string };
    const forSub = await page.request.post("/v1/delegated_users", {
      headers: { ...headers, "service-account-id": sub.id },
      data: { externalId },
    });
    expect(forSub.status()).toBe(201);
    // And something by the owner, who must not show up under this employee.
    const owner = (await (await server.admin.get("/v1/sessions/current")).json()) as { employee: { id: string } };
    expect((await server.admin.post("/v1/sandbox/recipients", { data: { name: `Audit ${run()}` } })).status()).toBe(
      201,
    );

    await page.goto("/audit-log?action=delegated_user.create");
    await expect(page.getByLabel("Action")).toHaveValue("delegated_user.create");
    // Actors by name, linked to their page (the id on hover), never as a bare emp_ id.
    const mine = page.getByTestId("audit-event-row").filter({ hasText: employee.name });
    await expect(mine).toHaveCount(3);
    await expect(mine.first().getByRole("link", { name: employee.name, exact: true })).toHaveAttribute(
      "href",
      `/employees/${employee.id}`,
    );
    await expect(page.getByTestId("audit-event-row").filter({ hasText: employee.id })).toHaveCount(0);
    await expect(mine.filter({ hasText: "for acct_" })).toHaveCount(1);
    const success = mine.filter({ has: page.getByText("success", { exact: true }) });
    await expect(success).toHaveCount(2);
    await expect(success.first().getByTitle("HTTP status")).toHaveText("201");
    // The target is shortened, linked, and whole on hover.
    await expect(success.getByTitle(user.id)).toHaveText(`${user.id.slice(0, 8)}…${user.id.slice(-4)}`);
    await expect(success.first()).toContainText("Employee");
    // A date-time with its zone, on one line.
    await expect(success.first().locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d\d [AP]M \w+/);
    const failure = mine.filter({ has: page.getByText("failure", { exact: true }) });
    await expect(failure.getByTitle("HTTP status")).toHaveText("409");
    // Only that action is listed.
    await expect(page.getByRole("cell", { name: "sandbox.recipient.create" })).toHaveCount(0);

    // A row opens to the whole record: ids in full, where it came from, what the request named.
    const forSubRow = mine.filter({ hasText: "for acct_" });
    const toggle = forSubRow.getByRole("button", { name: /^Details/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const details = page.getByTestId("audit-event-details");
    await expect(details).toHaveCount(1);
    await expect(details).toContainText(sub.id);
    await expect(details).toContainText(employee.id);
    await expect(details).toContainText(/req_/);
    await expect(details).toContainText("success (HTTP 201)");
    await snap(page, testInfo, "audit-log");
    await toggle.click();
    await expect(details).toHaveCount(0);

    // "Filter" beside the actor shows only that actor's events; the form then shows both filters.
    await success
      .first()
      .getByRole("link", { name: `Filter: only the events of ${employee.name}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`action=delegated_user\\.create&actorId=${employee.id}$`));
    await expect(page.getByLabel("Actor id")).toHaveValue(employee.id);
    await expect(page.locator("tbody tr")).toHaveCount(3);

    // Filtering by the owner through the form: the action picked from the list, the owner's sandbox
    // action, none of the employee's.
    await page.getByLabel("Action").selectOption("sandbox.recipient.create");
    await page.getByLabel("Actor id").fill(owner.employee.id);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`action=sandbox\\.recipient\\.create&actorId=${owner.employee.id}$`));
    await expect(page.getByTestId("audit-event-row").first()).toContainText("sandbox.recipient.create");
    await expect(page.getByTestId("audit-event-row").filter({ hasText: employee.name })).toHaveCount(0);

    // Today's date range still finds them; a reversed range is refused under the field.
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel("From (UTC)").fill(today);
    await page.getByLabel("To (UTC)").fill(today);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`startDate=${today}&endDate=${today}$`));
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await page.getByLabel("From (UTC)").fill("2999-01-02");
    await page.getByLabel("To (UTC)").fill("2999-01-01");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("must not be after endDate")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`startDate=${today}&endDate=${today}$`));
  });

  test("Export CSV downloads the log with its filters", async ({ page, baseURL }) => {
    const created = await page.request.post("/v1/delegated_users", {
      headers: { origin: baseURL! },
      data: { externalId: `exported-${run()}` },
    });
    expect(created.status()).toBe(201);
    const user = (await created.json()) as { id: string };
    await page.goto("/audit-log?action=delegated_user.create");
    await expect(page.getByTestId("audit-event-row").first()).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const [header, ...lines] = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(header).toMatch(/(^|,)action(,|$)/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes("delegated_user.create"))).toBe(true);
    expect(lines.some((line) => line.includes(user.id))).toBe(true);
  });

  test("an unknown action is an empty state; a malformed date in the URL is refused next to its field", async ({
    page,
  }) => {
    await page.goto("/audit-log?action=no.such.action");
    await expect(page.getByText("No events match these filters.")).toBeVisible();
    // An action the picker does not know (from an old link) is still the one shown as chosen.
    await expect(page.getByLabel("Action")).toHaveValue("no.such.action");
    await page.goto("/audit-log?startDate=yesterday");
    await expect(page.getByLabel("From (UTC)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(".field-error").filter({ hasText: "must be a date" })).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/audit-log$/);
    await expect(page.locator("tbody tr").first()).toBeVisible();
  });
});
