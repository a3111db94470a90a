import type { APIRequestContext, Page } from "@playwright/test";
import { generateSync } from "otplib";
import {
  copyFromDialog,
  EMPLOYEE_PASSWORD,
  enrolTotp,
  expect,
  OWNER,
  snap,
  snapAlsoOnPhone,
  startServer,
  test,
} from "./fixtures";

type Authenticator = Awaited<ReturnType<typeof enrolTotp>>["authenticator"];

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** A six-digit code the server cannot accept right now (none of the steps around now). */
function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 30_000);
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => generateSync({ secret, epoch: (now + offset) * 30 + 1 })));
  return ["000000", "111111", "222222"].find((code) => !valid.has(code))!;
}

/** Issues a key through the API as the signed-in employee (the cookie session of `request`). */
async function issueKeyViaApi(request: APIRequestContext, baseURL: string, authenticator: Authenticator, body: object) {
  const response = await request.post(`${baseURL}/v1/api_keys`, {
    headers: { origin: baseURL, "service-totp-code": await authenticator.next() },
    data: { expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), ...body },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; name: string; prefix: string; secret: string };
}

const rowOf = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
/** A key's row by its prefix: after a roll, the old and the new key share their name. */
const rowOfPrefix = (page: Page, prefix: string) => page.getByRole("row").filter({ hasText: `${prefix}…` });

/** Opens the Issue key dialog; `box` is one of its permission checkboxes, by its exact label. */
async function openIssueDialog(page: Page) {
  await page.getByRole("button", { name: "Issue key" }).click();
  const dialog = page.getByRole("dialog");
  return { dialog, box: (label: string) => dialog.getByRole("checkbox", { name: label, exact: true }) };
}

/** GET /v1/api_keys with a key's secret, from outside the browser (no session cookie). */
async function statusWith(baseURL: string, secret: string) {
  const response = await fetch(`${baseURL}/v1/api_keys`, { headers: { authorization: `Bearer ${secret}` } });
  return response.status;
}

test.describe("API keys page", () => {
  test("a fresh platform shows the empty state", async ({ browser }, testInfo) => {
    const fresh = await startServer();
    const context = await browser.newContext({ baseURL: fresh.baseURL });
    try {
      const problems: string[] = [];
      const page = await context.newPage();
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("console", (message) => {
        if (
          message.type() === "error" &&
          !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
        )
          problems.push(message.text());
      });
      const setup = await context.request.post("/v1/setup", { data: OWNER, headers: { origin: fresh.baseURL } });
      expect(setup.status()).toBe(201);

      await page.goto("/api-keys");
      await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
      await expect(page.getByText("No API keys yet.")).toBeVisible();
      await expect(page.getByRole("table")).toHaveCount(0);
      await snap(page, testInfo, "api-keys-empty");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await fresh.stop();
    }
  });

  test("issues a key with a fresh code, shows the secret once with a copy button, then lists it", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    const name = `Payouts ${unique()}`;
    await page.goto("/api-keys");
    const { dialog } = await openIssueDialog(page);
    await expect(dialog.getByRole("heading", { name: "Issue API key" })).toBeVisible();

    // The picker offers tomorrow up to one year ahead; the furthest day is accepted by the API.
    const expiry = dialog.getByLabel("Expires on");
    const now = new Date();
    const yearAhead = new Date(now);
    yearAhead.setUTCFullYear(yearAhead.getUTCFullYear() + 1);
    await expect(expiry).toHaveAttribute("type", "date");
    await expect(expiry).toHaveAttribute("min", utcDay(new Date(now.getTime() + 86_400_000)));
    await expect(expiry).toHaveAttribute("max", utcDay(yearAhead));
    const pickedDay = (await expiry.getAttribute("max"))!;
    await expiry.fill(pickedDay);

    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Add range" }).click();
    await dialog.getByLabel("Range 1", { exact: true }).fill("203.0.113.0/24");
    await dialog.getByRole("button", { name: "Add range" }).click();
    await dialog.getByLabel("Range 2", { exact: true }).fill("2001:db8::/32");
    const code = await authenticator.next();
    await dialog.getByLabel("Authenticator code").fill(code);
    await snap(page, testInfo, "issue-form");
    await dialog.getByRole("button", { name: "Issue key" }).click();

    await expect(dialog.getByRole("heading", { name: "Your new API key" })).toBeVisible();
    await expect(dialog.getByText("Copy it now: you will not see this key again.")).toBeVisible();
    const secret = (await dialog.getByTestId("api-key-secret").textContent())!;
    expect(secret).toMatch(/^svc_[A-Za-z0-9_-]{20,}$/);
    const copy = dialog.getByRole("button", { name: "Copy key" });
    await expect(copy).toBeVisible();
    await copyFromDialog(page, dialog, copy, secret);
    await snap(page, testInfo, "issue-secret-shown-once");

    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, name);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(secret.slice(0, 12));
    await expect(row).toContainText("active");
    await expect(row).toContainText("203.0.113.0/24");
    await expect(row).toContainText("2001:db8::/32");
    await expect(row.getByTestId("key-last-used")).toHaveText("Last used never");
    // The picked day, as that day (whatever the browser's zone), not a time the evening before.
    const [year, month, day] = pickedDay.split("-").map(Number) as [number, number, number];
    await expect(row.locator('td[data-label="Expires"] time')).toHaveText(
      new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(
        new Date(year, month - 1, day),
      ),
    );
    // Nothing changed in the checklist: the key holds the "Read only" starting point, and says who issued it.
    await expect(row).toContainText(/\d+ permissions, read only/);
    await expect(row).toContainText("by you");
    // Shown once: the list (and a reload) never show the secret again.
    await expect(page.getByText(secret)).toHaveCount(0);
    await page.reload();
    await expect(rowOf(page, name)).toHaveCount(1);
    await expect(page.getByText(secret)).toHaveCount(0);
    await snap(page, testInfo, "api-keys-list");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rowOf(page, name)).toHaveCount(1);
    await snap(page, testInfo, "api-keys-list-phone");
  });

  test("refuses a past expiry and flags ranges as they are typed, before any request", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/v1/api_keys"))
        sent.push(request.url());
    });
    await page.goto("/api-keys");
    const { dialog } = await openIssueDialog(page);

    await dialog.getByRole("button", { name: "Add range" }).click();
    const range = dialog.getByLabel("Range 1", { exact: true });
    await range.pressSequentially("10.0.0");
    await expect(range).toHaveAttribute("aria-invalid", "true");
    await expect(range).toHaveAccessibleDescription(/must be a CIDR range such as 203\.0\.113\.0\/24/);
    await range.pressSequentially(".1/8");
    await expect(range).toHaveAccessibleDescription('"10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?');
    await snap(page, testInfo, "cidr-host-bits");
    await range.fill("10.0.0.0/8");
    await expect(range).not.toHaveAttribute("aria-invalid", "true");
    await expect(range).not.toHaveAccessibleDescription(/host bits/);

    await dialog.getByRole("button", { name: "Add range" }).click();
    const second = dialog.getByLabel("Range 2", { exact: true });
    await second.pressSequentially("300.1.2.3/8");
    await expect(second).toHaveAccessibleDescription(/must be a CIDR range with a dotted-quad IPv4 address/);
    await dialog.getByRole("button", { name: "Remove range 2" }).click();
    await expect(dialog.getByLabel("Range 2", { exact: true })).toHaveCount(0);

    const expiry = dialog.getByLabel("Expires on");
    await expiry.fill("2020-01-01");
    await dialog.getByLabel("Authenticator code").fill("123456");
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(expiry).toHaveAccessibleDescription(/must be in the future/);
    await expect(expiry).toHaveAttribute("aria-invalid", "true");
    // Today is not in the future either: the key would be dead on arrival.
    await expiry.fill(utcDay(new Date()));
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(expiry).toHaveAccessibleDescription(/must be in the future/);
    await snap(page, testInfo, "past-expiry-refused");
    expect(sent).toEqual([]);
  });

  test("a wrong authenticator code is refused under the code field; API details land next to their fields", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Wrong code ${unique()}`;
    await page.goto("/api-keys");
    const { dialog } = await openIssueDialog(page);
    await dialog.getByLabel("Name").fill(name);
    const code = dialog.getByLabel("Authenticator code");
    await code.fill(wrongCode(authenticator.secret));
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await expect(code).toHaveAccessibleDescription(/The authenticator code is wrong, expired or already used/);
    await expect(dialog.getByTestId("api-key-secret")).toHaveCount(0);
    await snap(page, testInfo, "wrong-code");

    // Whatever the API refuses comes back next to the field it names (here a refusal made up by the
    // test, since the form's own checks stop these before they are sent).
    await page.route("**/v1/api_keys", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 422,
            json: {
              error_code: "err_validation",
              http_code: 422,
              message: "The request is invalid",
              details: {
                "cidrAllowlist.1": '"192.0.2.0/24" is not allowed here',
                expiresAt: "must be at most one year from now",
              },
            },
          })
        : route.continue(),
    );
    await dialog.getByRole("button", { name: "Add range" }).click();
    await dialog.getByLabel("Range 1", { exact: true }).fill("198.51.100.0/24");
    await dialog.getByRole("button", { name: "Add range" }).click();
    await dialog.getByLabel("Range 2", { exact: true }).fill("192.0.2.0/24");
    await code.fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(dialog.getByLabel("Range 2", { exact: true })).toHaveAccessibleDescription(
      '"192.0.2.0/24" is not allowed here',
    );
    await expect(dialog.getByLabel("Range 1", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Expires on")).toHaveAccessibleDescription(/must be at most one year from now/);
    await snap(page, testInfo, "api-details-next-to-fields");
    await page.unrouteAll();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(rowOf(page, name)).toHaveCount(0);
  });

  test("issues a key with a chosen subset of permissions; the list shows exactly those", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Reconciliation ${unique()}`;
    await page.goto("/api-keys");
    const { dialog, box } = await openIssueDialog(page);

    // Checked at first: reads only (the "Read only" starting point), whatever the API's own default.
    for (const label of ["Transactions: read", "Employees: read"]) await expect(box(label)).toBeChecked();
    for (const label of ["Webhooks: write", "API keys: write", "Employees: write"])
      await expect(box(label)).not.toBeChecked();
    await expect(dialog.getByRole("button", { name: "Read only" })).toHaveAttribute("aria-pressed", "true");
    await expect(dialog.getByRole("button", { name: "Read only" })).toHaveAccessibleDescription(/changes nothing/);
    await expect(box("Employees: write")).toBeEnabled();
    // Never offered: no key may hold them.
    await expect(dialog.getByRole("checkbox", { name: /^Settings: write$|^Roles|^Owners/ })).toHaveCount(0);
    // "API default": what the API gives a key issued without a list, and the dialog says so.
    await dialog.getByRole("button", { name: "API default" }).click();
    await expect(dialog.getByRole("button", { name: "API default" })).toHaveAttribute("aria-pressed", "true");
    await expect(dialog.getByRole("button", { name: "API default" })).toHaveAccessibleDescription(/issue keys/);
    await expect(box("Webhooks: write")).toBeChecked();
    await expect(dialog.getByText("23 of 24 permissions chosen.")).toBeVisible();
    // Employees: write is never part of a starting point, and warns once checked.
    await expect(box("Employees: write")).not.toBeChecked();
    await box("Employees: write").check();
    await expect(dialog.getByRole("button", { name: "API default" })).toHaveAttribute("aria-pressed", "false");
    await expect(dialog.getByRole("note").filter({ hasText: "lets this key invite people" })).toBeVisible();
    await snap(page, testInfo, "issue-permissions-defaults");

    await dialog.getByRole("button", { name: "Read only" }).click();
    await expect(box("Transactions: read")).toBeChecked();
    await expect(box("Webhooks: write")).not.toBeChecked();
    await expect(box("Employees: write")).not.toBeChecked();
    await expect(dialog.getByRole("note").filter({ hasText: "lets this key invite people" })).toHaveCount(0);

    await dialog.getByRole("button", { name: "None" }).click();
    await expect(dialog.getByText("No permissions chosen")).toBeVisible();
    await box("Transactions: read").check();
    await box("Recipients: read").check();
    await box("Recipients: write").check();
    await expect(dialog.getByText("3 of 24 permissions chosen.")).toBeVisible();
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "issue-permissions-subset");
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, testInfo, "issue-permissions-subset-phone");
    await page.setViewportSize({ width: 1280, height: 720 });
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(dialog.getByRole("heading", { name: "Your new API key" })).toBeVisible();
    const secret = (await dialog.getByTestId("api-key-secret").textContent())!;
    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();

    const row = rowOf(page, name);
    await expect(row).toContainText("3 permissions");
    await expect(row).toContainText("by you");
    await row.getByText("3 permissions").click();
    await expect(row.getByRole("list", { name: "Permissions" }).getByRole("listitem")).toHaveText([
      "Transactions: read",
      "Recipients: read, write",
    ]);
    await snap(page, testInfo, "permissions-expanded");

    // The API agrees, and the key can do what it was given and nothing more.
    const listed = (await (await page.request.get(`${baseURL}/v1/api_keys`)).json()) as {
      name: string;
      permissions: string[];
    }[];
    expect(listed.find((key) => key.name === name)?.permissions).toEqual([
      "transactions:read",
      "recipients:read",
      "recipients:write",
    ]);
    expect(await statusWith(baseURL!, secret)).toBe(403);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row.getByRole("list", { name: "Permissions" })).toBeVisible();
    await snap(page, testInfo, "permissions-expanded-phone");
  });

  test("rolls a key: the old secret works through a 1-hour overlap, and stops at once with none", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Ledger sync ${unique()}`;
    const first = (await (
      await page.request.post(`${baseURL}/v1/api_keys`, {
        headers: { origin: baseURL!, "service-totp-code": await authenticator.next() },
        data: {
          name,
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          permissions: ["api_keys:read", "transactions:read"],
        },
      })
    ).json()) as { id: string; prefix: string; secret: string };
    expect(await statusWith(baseURL!, first.secret)).toBe(200);

    await page.goto("/api-keys");
    const firstRow = rowOfPrefix(page, first.prefix);
    await expect(firstRow).toContainText("2 permissions, read only");
    await firstRow.getByRole("button", { name: `Roll ${name}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Roll API key" })).toBeVisible();
    await expect(dialog).toContainText(`Roll ${name} (${first.prefix}…)`);
    const expiry = dialog.getByLabel("New secret expires on");
    await expect(expiry).toHaveAttribute("type", "date");
    await expiry.fill(utcDay(new Date(Date.now() + 60 * 86_400_000)));
    await expect(dialog.getByRole("radio", { name: "1 hour" })).toBeChecked();
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "roll-form");
    await dialog.getByRole("button", { name: "Roll key" }).click();

    await expect(dialog.getByRole("heading", { name: "Your new API key" })).toBeVisible();
    await expect(dialog.getByText("Copy it now: you will not see this key again.")).toBeVisible();
    await expect(dialog.getByRole("note")).toContainText(`The old secret (${first.prefix}…) keeps working until`);
    const second = (await dialog.getByTestId("api-key-secret").textContent())!;
    expect(second).toMatch(/^svc_[A-Za-z0-9_-]{20,}$/);
    expect(second).not.toBe(first.secret);
    await snap(page, testInfo, "roll-secret-shown-once");
    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    // Both secrets work during the overlap; the list shows both keys, the new one with the same permissions.
    expect(await statusWith(baseURL!, first.secret)).toBe(200);
    expect(await statusWith(baseURL!, second)).toBe(200);
    await expect(rowOf(page, name)).toHaveCount(2);
    const secondRow = rowOfPrefix(page, second.slice(0, 12));
    await expect(secondRow).toContainText("2 permissions, read only");
    await expect(secondRow).toContainText("active");
    await expect(firstRow).toContainText("active");
    await expect(page.getByText(second)).toHaveCount(0);
    await snap(page, testInfo, "rolled-list");

    // Rolling the new key with no overlap: its secret stops at once, the next one works.
    await secondRow.getByRole("button", { name: `Roll ${name}` }).click();
    await dialog.getByRole("radio", { name: "None" }).check();
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await dialog.getByRole("button", { name: "Roll key" }).click();
    await expect(dialog.getByRole("note")).toContainText("has stopped working");
    const third = (await dialog.getByTestId("api-key-secret").textContent())!;
    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();
    expect(await statusWith(baseURL!, second)).toBe(401);
    expect(await statusWith(baseURL!, third)).toBe(200);
    expect(await statusWith(baseURL!, first.secret)).toBe(200);

    // A stopped key offers nothing more; the list has all three.
    await expect(rowOf(page, name)).toHaveCount(3);
    await expect(secondRow).toContainText("expired");
    await expect(secondRow.getByRole("button")).toHaveCount(0);
    await snap(page, testInfo, "rolled-twice");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(secondRow).toContainText("expired");
    await snap(page, testInfo, "rolled-twice-phone");
  });

  test("edits a key's allowlist with a code", async ({ page, baseURL, employee: _ }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Reporting ${unique()}`;
    await issueKeyViaApi(page.request, baseURL!, authenticator, { name, cidrAllowlist: ["203.0.113.0/24"] });
    await page.goto("/api-keys");
    await expect(rowOf(page, name)).toContainText("203.0.113.0/24");

    await page.getByRole("button", { name: `Edit allowlist of ${name}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Edit allowlist" })).toBeVisible();
    await expect(dialog).toContainText(name);
    await expect(dialog.getByLabel("Range 1", { exact: true })).toHaveValue("203.0.113.0/24");
    await dialog.getByRole("button", { name: "Add range" }).click();
    await dialog.getByLabel("Range 2", { exact: true }).pressSequentially("198.51.100.7/24");
    await expect(dialog.getByLabel("Range 2", { exact: true })).toHaveAccessibleDescription(
      /did you mean 198\.51\.100\.0\/24\?/,
    );
    await dialog.getByLabel("Range 2", { exact: true }).fill("198.51.100.0/24");
    await dialog.getByRole("button", { name: "Remove range 1" }).click();
    await expect(dialog.getByLabel("Range 1", { exact: true })).toHaveValue("198.51.100.0/24");
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "edit-allowlist");
    await dialog.getByRole("button", { name: "Save allowlist" }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: `Allowlist of ${name} saved.` })).toBeVisible();
    await expect(rowOf(page, name)).toContainText("198.51.100.0/24");
    await expect(rowOf(page, name)).not.toContainText("203.0.113.0/24");
    await snap(page, testInfo, "edit-allowlist-saved");
  });

  test("issues a key with its own rate limit; its page changes it back to the platform default and again", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const settings = (await (await page.request.get(`${baseURL}/v1/settings`)).json()) as {
      defaultKeyRateLimit: { requests: number; perSeconds: number };
    };
    const { requests, perSeconds } = settings.defaultKeyRateLimit;
    const platformDefault = `${requests.toLocaleString("en-US")} request${requests === 1 ? "" : "s"} per ${
      perSeconds === 1
        ? "second"
        : perSeconds === 60
          ? "minute"
          : perSeconds === 3600
            ? "hour"
            : `${perSeconds} seconds`
    }`;
    const name = `Limited ${unique()}`;
    await page.goto("/api-keys");
    const { dialog } = await openIssueDialog(page);
    const limit = dialog.getByRole("group", { name: "Rate limit (optional)" });
    await expect(limit).toHaveAccessibleDescription(
      `Leave both blank for the platform default (${platformDefault}), which follows the Settings page.`,
    );
    await dialog.getByLabel("Name").fill(name);
    // One box alone is refused before any request: a limit needs both.
    await limit.getByLabel("Requests").fill("50");
    await dialog.getByLabel("Authenticator code").fill("123456");
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(limit.getByLabel("Per (seconds)")).toHaveAccessibleDescription(/must be a whole number of seconds/);
    await limit.getByLabel("Per (seconds)").fill("10");
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "issue-rate-limit");
    await page.setViewportSize({ width: 390, height: 844 });
    await limit.scrollIntoViewIfNeeded();
    await snap(page, testInfo, "issue-rate-limit-phone");
    await page.setViewportSize({ width: 1280, height: 720 });
    await dialog.getByRole("button", { name: "Issue key" }).click();
    await expect(dialog.getByRole("heading", { name: "Your new API key" })).toBeVisible();
    await dialog.getByTestId("shown-once-saved").check();
    await dialog.getByRole("button", { name: "Done" }).click();

    await rowOf(page, name).getByRole("link").click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("key-rate-limit")).toHaveText("50 requests per 10 seconds");

    // Back to the platform default.
    await page.getByRole("button", { name: "Change rate limit" }).click();
    const change = page.getByRole("dialog");
    await expect(change.getByRole("radio", { name: "Its own limit" })).toBeChecked();
    await expect(change.getByLabel("Requests")).toHaveValue("50");
    await change.getByRole("radio", { name: "Platform default" }).check();
    await expect(change.getByLabel("Requests")).toHaveCount(0);
    await change.getByLabel("Authenticator code").fill(await authenticator.next());
    await change.getByRole("button", { name: "Save rate limit" }).click();
    await expect(change).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: `Rate limit of ${name} saved.` })).toBeVisible();
    await expect(page.getByTestId("key-rate-limit")).toHaveText(`${platformDefault} (platform default)`);
    await snapAlsoOnPhone(page, testInfo, "key-rate-limit-default", "key-rate-limit-default-phone");

    // Its own limit again, starting from the default's numbers.
    await page.getByRole("button", { name: "Change rate limit" }).click();
    await expect(change.getByRole("radio", { name: "Platform default" })).toBeChecked();
    await change.getByRole("radio", { name: "Its own limit" }).check();
    await expect(change.getByLabel("Requests")).toHaveValue(String(requests));
    await change.getByLabel("Requests").fill("20");
    await change.getByLabel("Per (seconds)").fill("60");
    await change.getByLabel("Authenticator code").fill(await authenticator.next());
    await snapAlsoOnPhone(page, testInfo, "change-rate-limit", "change-rate-limit-phone");
    await change.getByRole("button", { name: "Save rate limit" }).click();
    await expect(change).toBeHidden();
    await expect(page.getByTestId("key-rate-limit")).toHaveText("20 requests per minute");
    await page.reload();
    await expect(page.getByTestId("key-rate-limit")).toHaveText("20 requests per minute");
    const listed = (await (await page.request.get(`${baseURL}/v1/api_keys`)).json()) as {
      name: string;
      rateLimit: unknown;
    }[];
    expect(listed.find((key) => key.name === name)?.rateLimit).toEqual({ requests: 20, perSeconds: 60 });
    await snapAlsoOnPhone(page, testInfo, "key-rate-limit-own", "key-rate-limit-own-phone");
  });

  test("a key's page shows its last use and its requests of the last 30 days by outcome", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Usage ${unique()}`;
    const key = await issueKeyViaApi(page.request, baseURL!, authenticator, { name });
    const headers = { authorization: `Bearer ${key.secret}`, "user-agent": "e2e-usage/1.0 (playwright)" };
    for (const path of ["/v1/api_keys", "/v1/api_keys", "/v1/api_keys/key_00000000000000000000/usage"])
      await fetch(`${baseURL}${path}`, { headers });
    await page.goto("/api-keys");
    await rowOf(page, name).getByRole("link").click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("key-last-used-user-agent")).toHaveText("e2e-usage/1.0 (playwright)");
    await expect(page.getByTestId("key-last-used-ip")).not.toHaveText("—");
    // Each process adds its counts every 5 seconds: the page shows them once added.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("key-usage-chart")).toHaveAttribute(
        "aria-label",
        "3 requests in 30 days: 2 ok, 1 client error, 0 rate limited, 0 denied",
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 20_000 });
    await snap(page, testInfo, "key-usage");
  });

  test("revokes a key after a confirmation naming it; a revoked key cannot be edited", async ({
    page,
    baseURL,
    employee: _,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Old integration ${unique()}`;
    const key = await issueKeyViaApi(page.request, baseURL!, authenticator, { name });
    await page.goto("/api-keys");
    const row = rowOf(page, name);
    await expect(row).toContainText("active");

    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Revoke API key" })).toBeVisible();
    await expect(dialog).toContainText(`Revoke ${name} (${key.prefix}…)?`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("active");

    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    // The code is required before anything is sent.
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog.getByLabel("Authenticator code")).toHaveAccessibleDescription(/must be the 6-digit code/);
    await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
    await snap(page, testInfo, "revoke-confirm");
    await dialog.getByRole("button", { name: "Revoke key" }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: `${name} is revoked.` })).toBeVisible();
    await expect(row).toContainText("revoked");
    await expect(row.getByRole("button")).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Edit allowlist of ${name}` })).toHaveCount(0);
    await snap(page, testInfo, "revoked");
  });

  test("an employee without 2FA is sent to set it up instead of issuing", async ({ page, employee: _ }, testInfo) => {
    await page.goto("/api-keys");
    const { dialog } = await openIssueDialog(page);
    const setUp = dialog.getByRole("link", { name: "Set up two-factor authentication" });
    await expect(setUp).toHaveAttribute("href", "/security");
    await expect(dialog.getByLabel("Authenticator code")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Issue key" })).toBeDisabled();
    await snap(page, testInfo, "no-2fa");
    await setUp.click();
    await expect(page).toHaveURL(/\/security$/);
    await expect(page.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
  });
});

test.describe("API keys page for a viewer", () => {
  test.use({ role: "viewer" });

  test("sees the keys, their permissions and who issued them, but nothing to change them with", async ({
    page,
  }, testInfo) => {
    await page.goto("/api-keys");
    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    // The worker's inviter key, issued by the owner with employees:read and write.
    const row = rowOf(page, "e2e inviter");
    await expect(row).toContainText("2 permissions");
    await expect(row).toContainText("Can invite people");
    await expect(row).toContainText(`by ${OWNER.name}`);
    await expect(
      page.getByRole("note").filter({ hasText: "Your role can see API keys but not issue, roll or revoke them." }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /^(Issue key|Roll|Revoke|Edit allowlist)/ })).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);
    await snap(page, testInfo, "viewer");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toBeVisible();
    await snap(page, testInfo, "viewer-phone");
    // Its page shows the limit that applies, and nothing to change it with.
    await row.getByRole("link").click();
    await expect(page.getByTestId("key-rate-limit")).toContainText(/requests? per /);
    await expect(page.getByRole("button", { name: "Change rate limit" })).toHaveCount(0);
  });
});

test.describe("API keys page for a developer", () => {
  test.use({ role: "developer" });

  test("offers only the permissions the role holds, and no changes to keys that hold more", async ({
    page,
  }, testInfo) => {
    await page.goto("/api-keys");
    // Without employees:read the issuer's name cannot be read; the key holds more than a developer.
    const row = rowOf(page, "e2e inviter");
    await expect(row).toContainText("by an employee");
    await expect(row.getByRole("button", { name: "Revoke e2e inviter" })).toBeVisible();
    await expect(row.getByRole("button", { name: /^(Roll|Edit allowlist)/ })).toHaveCount(0);
    await expect(row).toContainText("Beyond your role");
    await expect(page.getByText(/hold permissions your role lacks: you can revoke them/)).toBeVisible();
    await snap(page, testInfo, "developer-list");
    // Nor on the key's page: its limit is shown, but the API would refuse changing it.
    await row.getByRole("link").click();
    await expect(page.getByTestId("key-rate-limit")).toContainText(/requests? per /);
    await expect(page.getByRole("button", { name: "Change rate limit" })).toHaveCount(0);
    await page.goto("/api-keys");

    const { dialog, box } = await openIssueDialog(page);
    await dialog.getByRole("button", { name: "API default" }).click();
    await expect(box("Webhooks: write")).toBeChecked();
    await expect(box("Sandbox: write")).toBeChecked();
    await expect(box("Employees: read")).toBeDisabled();
    await expect(box("Employees: read")).not.toBeChecked();
    await expect(box("Information requests: write")).toBeDisabled();
    await expect(dialog).toContainText("Greyed out: not part of your role (Developer)");
    await snap(page, testInfo, "developer-issue");
    // "Read only" picks only reads the role holds.
    await dialog.getByRole("button", { name: "Read only" }).click();
    await expect(box("Transactions: read")).toBeChecked();
    await expect(box("Employees: read")).not.toBeChecked();
    await expect(box("Webhooks: write")).not.toBeChecked();
  });
});
