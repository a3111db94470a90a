import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { EMPLOYEE_PASSWORD, enrolTotp, expect, OWNER, snap, test, type Server } from "./fixtures";

// The information-request work queue (docs/dashboard.md): views, the due-date order, bulk actions with
// per-row results, the CSV export of a view, and the SLA setting that gives requests their deadline.

type Kind = "due_diligence" | "endorsement";
type Request = { id: string; dueAt: string | null; createdAt: string; assigneeId: string | null };

// "Due today" is a day in the reader's zone: the browser reads in UTC, as the test computes days.
test.use({ timezoneId: "UTC" });

async function raise(admin: APIRequestContext, kind: Kind = "due_diligence"): Promise<string> {
  const response = await admin.post("/v1/sandbox/information_requests", { data: { kind } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function move(admin: APIRequestContext, id: string, status: string, reasonCode?: string) {
  const response = await admin.post(`/v1/information_requests/${id}/status`, {
    data: { status, ...(reasonCode ? { reasonCode, reason: "Decided in the test." } : {}) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function assign(admin: APIRequestContext, id: string, assigneeId: string | null) {
  const response = await admin.post(`/v1/information_requests/${id}`, { data: { assigneeId } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Moves a request's deadline straight in the server's database: an SLA is at least an hour, and a
 * test cannot wait for one to pass. Written in the format the server stores its dates in.
 */
function setDueAt(server: Server, id: string, dueAt: Date) {
  const db = new Database(path.join(server.dataDir, "app.db"));
  try {
    db.pragma("busy_timeout = 5000");
    const row = db.prepare(`SELECT createdAt FROM "InformationRequest" WHERE id = ?`).get(id) as { createdAt: unknown };
    const value = typeof row.createdAt === "number" ? dueAt.getTime() : dueAt.toISOString();
    db.prepare(`UPDATE "InformationRequest" SET dueAt = ? WHERE id = ?`).run(value, id);
  } finally {
    db.close();
  }
}

const requestLink = (page: Page, id: string) => page.getByRole("link", { name: id, exact: true });
const rowOf = (page: Page, id: string) =>
  page.getByTestId("information-request-row").filter({ has: requestLink(page, id) });
const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Queue views" }).getByRole("link", { name });

test.describe("the information-request queue", () => {
  test("views: assigned to me, unassigned, overdue, all open and decided, each its own address", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    const mine = await raise(server.admin);
    const unassigned = await raise(server.admin, "endorsement");
    const late = await raise(server.admin);
    const decided = await raise(server.admin);
    // A new employee has nothing yet: the view says so.
    await page.goto("/information-requests?view=mine");
    await expect(page.getByText("Nothing assigned to you.")).toBeVisible();
    await assign(server.admin, mine, employee.id);
    await move(server.admin, decided, "on_review");
    await move(server.admin, decided, "approved");
    setDueAt(server, late, new Date(Date.now() - 2 * 3_600_000));

    await page.goto("/information-requests");
    await expect(tab(page, "All open")).toHaveAttribute("aria-current", "page");
    await expect(requestLink(page, mine)).toBeVisible();
    await expect(requestLink(page, unassigned)).toBeVisible();
    await expect(requestLink(page, decided)).toHaveCount(0);
    await expect(rowOf(page, mine).getByTestId("assignee")).toHaveText(`${employee.name} (you)`);
    await expect(rowOf(page, unassigned).getByTestId("assignee")).toHaveText("Unassigned");
    await expect(rowOf(page, mine).getByTestId("priority")).toHaveText("Normal");
    await expect(rowOf(page, mine).getByTestId("age")).toHaveText(/^(< 1 min|\d+ min)$/);
    await expect(rowOf(page, unassigned).getByTestId("due")).toHaveText("No SLA");
    // Overdue in words, not only in red.
    await expect(rowOf(page, late).getByTestId("due")).toContainText("Overdue");
    await expect(page.getByTestId("queue-count")).toContainText("shown, page 1");

    await tab(page, "Assigned to me").click();
    await expect(page).toHaveURL(/\?view=mine$/);
    await expect(tab(page, "Assigned to me")).toHaveAttribute("aria-current", "page");
    await expect(requestLink(page, mine)).toBeVisible();
    await expect(page.getByTestId("information-request-row")).toHaveCount(1);
    await snap(page, testInfo, "queue-mine");

    await tab(page, "Unassigned").click();
    await expect(page).toHaveURL(/\?view=unassigned$/);
    await expect(requestLink(page, unassigned)).toBeVisible();
    await expect(requestLink(page, mine)).toHaveCount(0);

    await tab(page, "Overdue").click();
    await expect(requestLink(page, late)).toBeVisible();
    await expect(requestLink(page, unassigned)).toHaveCount(0);

    await tab(page, "Decided").click();
    await expect(requestLink(page, decided)).toBeVisible();
    await expect(requestLink(page, mine)).toHaveCount(0);
    await expect(rowOf(page, decided).getByTestId("status")).toHaveText("approved");

    // Back goes to the view before; a reload keeps the view.
    await page.goBack();
    await expect(page).toHaveURL(/\?view=overdue$/);
    await page.reload();
    await expect(requestLink(page, late)).toBeVisible();

    // A view with nothing in it says so: once the late one is decided, nothing of this kind is overdue.
    await move(server.admin, late, "expired", "no_response");
    await page.goto("/information-requests?view=overdue&kind=endorsement");
    await expect(page.getByText("No information requests match these filters.")).toBeVisible();
  });

  test("sorted by due date from the Due heading, in the URL; due today in words", async ({ page, server }) => {
    // Raised in the opposite order of their deadlines, so the two orders differ.
    const today = await raise(server.admin);
    const sooner = await raise(server.admin);
    const later = await raise(server.admin);
    const now = Date.now();
    // Between now and the end of the UTC day: due today.
    const endOfDay = new Date(new Date(now).toISOString().slice(0, 10) + "T23:59:59.999Z").getTime();
    setDueAt(server, today, new Date(now + (endOfDay - now) / 2));
    setDueAt(server, sooner, new Date(now + 86_400_000 + 60_000));
    setDueAt(server, later, new Date(now + 3 * 86_400_000));

    await page.goto("/information-requests");
    const ids = () => page.getByTestId("information-request-row").getByRole("link", { name: /^ir_/ }).allTextContents();
    await expect(requestLink(page, today)).toBeVisible();
    let order = await ids();
    // Newest first.
    expect(order.indexOf(later)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(later)).toBeLessThan(order.indexOf(sooner));
    expect(order.indexOf(sooner)).toBeLessThan(order.indexOf(today));

    await page.getByRole("button", { name: /^Due/ }).click();
    await expect(page).toHaveURL(/[?&]sort=dueAt/);
    await expect(page.getByRole("button", { name: /^Due/ })).toHaveAttribute("aria-pressed", "true");
    await expect(rowOf(page, today).getByTestId("due")).toContainText("Due today");
    order = await ids();
    expect(order.indexOf(today)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(today)).toBeLessThan(order.indexOf(sooner));
    expect(order.indexOf(sooner)).toBeLessThan(order.indexOf(later));

    await page.reload();
    await expect(page.getByRole("button", { name: /^Due/ })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: /^Due/ }).click();
    await expect(page).not.toHaveURL(/sort=/);
  });

  test("select rows and assign them in bulk; decide in bulk with a result per row", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    const first = await raise(server.admin);
    const second = await raise(server.admin);
    await page.goto("/information-requests?view=unassigned");
    await rowOf(page, first)
      .getByRole("checkbox", { name: `Select ${first}` })
      .check();
    await rowOf(page, second)
      .getByRole("checkbox", { name: `Select ${second}` })
      .check();
    const bar = page.getByRole("group", { name: "Bulk actions" });
    await expect(bar).toContainText("2 selected");
    await bar.getByRole("button", { name: "Assign to…" }).click();
    const dialog = page.getByRole("dialog", { name: "Assign 2 requests" });
    const picker = dialog.getByLabel("Assign to");
    await expect(picker.getByRole("option", { name: OWNER.name })).toHaveCount(1);
    await expect(picker).toHaveValue(employee.id);
    await snap(page, testInfo, "bulk-assign");
    await dialog.getByRole("button", { name: "Assign", exact: true }).click();
    await expect(dialog).toBeHidden();
    const results = page.getByTestId("bulk-results");
    await expect(results.getByRole("status")).toHaveText("Assign to me: 2 of 2 done.");
    await expect(results.getByTestId("bulk-result")).toHaveCount(2);
    // Taken: they leave "Unassigned" and show in "Assigned to me".
    await expect(requestLink(page, first)).toHaveCount(0);
    await tab(page, "Assigned to me").click();
    await expect(requestLink(page, first)).toBeVisible();
    await expect(requestLink(page, second)).toBeVisible();
    const stored = (await (await server.admin.get(`/v1/information_requests/${first}`)).json()) as Request;
    expect(stored.assigneeId).toBe(employee.id);

    // One of them on review, the other still requested: approving both is refused for the second only.
    await move(server.admin, first, "on_review");
    await page.reload();
    await page.getByLabel("Select all on this page").check();
    await expect(page.getByRole("group", { name: "Bulk actions" })).toContainText(/\d+ selected/);
    await page.getByRole("button", { name: "Clear selection" }).click();
    await rowOf(page, first).getByRole("checkbox").check();
    await rowOf(page, second).getByRole("checkbox").check();
    await bar.getByRole("button", { name: "Decide…" }).click();
    const decide = page.getByRole("dialog", { name: "Decide 2 requests" });
    await decide.getByLabel("Decision").selectOption("rejected");
    await decide.getByRole("button", { name: "Reject 2" }).click();
    await expect(decide.getByLabel("Reason code")).toHaveAttribute("aria-invalid", "true");
    await decide.getByLabel("Reason code").selectOption("other");
    await decide.getByRole("button", { name: "Reject 2" }).click();
    await expect(decide.getByLabel("Reason", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await decide.getByLabel("Reason", { exact: true }).fill("The customer stopped answering.");
    await decide.getByLabel("Reason code").selectOption("insufficient_documents");
    await decide.getByRole("button", { name: "Reject 2" }).click();
    await expect(decide).toBeHidden();
    await expect(results.getByRole("status")).toHaveText("Reject: 1 of 2 done, 1 refused.");
    await expect(results.getByTestId("bulk-result").filter({ hasText: first })).toContainText("done");
    await expect(results.getByTestId("bulk-result").filter({ hasText: second })).toContainText(/refused: .+/);
    await snap(page, testInfo, "bulk-results");
    const rejected = (await (await server.admin.get(`/v1/information_requests/${first}`)).json()) as {
      status: string;
      decisionReasonCode: string;
    };
    expect(rejected).toMatchObject({ status: "rejected", decisionReasonCode: "insufficient_documents" });
  });

  test("find by id opens the request, or says it is not there", async ({ page, server }) => {
    const id = await raise(server.admin);
    await page.goto("/information-requests");
    const find = page.getByRole("search", { name: "Find an information request" });
    await find.getByLabel("Find by id").fill("tr_123");
    await find.getByRole("button", { name: "Open" }).click();
    await expect(find.getByRole("alert")).toContainText("starts with ir_");
    await find.getByLabel("Find by id").fill("ir_doesnotexist");
    await find.getByRole("button", { name: "Open" }).click();
    await expect(find.getByRole("alert")).toHaveText("No information request ir_doesnotexist in this account.");
    await find.getByLabel("Find by id").fill(` ${id} `);
    await find.getByRole("button", { name: "Open" }).click();
    await expect(page).toHaveURL(new RegExp(`/information-requests/${id}$`));
  });

  test("Export CSV downloads the view with its filters", async ({ page, server }) => {
    const endorsement = await raise(server.admin, "endorsement");
    const diligence = await raise(server.admin, "due_diligence");
    const closed = await raise(server.admin, "endorsement");
    await move(server.admin, closed, "expired", "no_response");
    await page.goto("/information-requests?view=open&kind=endorsement");
    await expect(requestLink(page, endorsement)).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), "utf8");
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toMatch(/(^|,)"?id"?(,|$)/);
    expect(csv).toContain(endorsement);
    expect(csv).not.toContain(diligence);
    expect(csv).not.toContain(closed);
    expect(lines.every((line) => /endorsement/.test(line))).toBe(true);
  });

  test("the queue at phone width: tabs, toolbar and table stay inside the screen", async ({
    page,
    server,
  }, testInfo) => {
    await raise(server.admin);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/information-requests?view=unassigned");
    await expect(page.getByTestId("information-request-row").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Sort by due date" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole("button", { name: "Sort by due date" }).click();
    await expect(page).toHaveURL(/sort=dueAt/);
    await snap(page, testInfo, "queue-phone");
  });
});

test.describe("SLA settings", () => {
  test("an admin sets SLA hours per kind with an authenticator code; new requests get their deadline", async ({
    page,
    baseURL,
    server,
  }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const restore = async () => {
      const response = await page.request.post(`${baseURL}/v1/settings`, {
        headers: { origin: baseURL!, "service-totp-code": await authenticator.next() },
        data: { slaHours: { due_diligence: null, endorsement: null } },
      });
      expect(response.status()).toBe(200);
    };
    try {
      await page.goto("/settings");
      const form = page.getByRole("form", { name: "Service levels" });
      const diligence = form.getByLabel("Due diligence (hours)");
      const endorsement = form.getByLabel("Endorsement (hours)");
      await expect(diligence).toHaveValue("");
      await diligence.fill("0");
      await form.getByRole("button", { name: "Save SLA" }).click();
      await expect(diligence).toHaveAttribute("aria-invalid", "true");
      await expect(diligence).toHaveAccessibleDescription(/1 to 8760/);
      await diligence.fill("48");
      await endorsement.fill("");
      await form.getByRole("button", { name: "Save SLA" }).click();
      const dialog = page.getByRole("dialog", { name: "Save settings" });
      await expect(dialog.getByRole("list", { name: "Changes" })).toHaveText(
        "Set the SLA: due diligence 48 h, endorsement none",
      );
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Save settings" }).click();
      await expect(dialog).toBeHidden();
      await expect(form.getByRole("status")).toHaveText(/^SLA saved\./);
      await snap(page, testInfo, "sla-saved");
      const stored = (await (await page.request.get(`${baseURL}/v1/settings`)).json()) as { slaHours: unknown };
      expect(stored.slaHours).toEqual({ due_diligence: 48, endorsement: null });
      await page.reload();
      await expect(diligence).toHaveValue("48");

      const id = await raise(server.admin, "due_diligence");
      const request = (await (await server.admin.get(`/v1/information_requests/${id}`)).json()) as Request;
      expect(new Date(request.dueAt!).getTime() - new Date(request.createdAt).getTime()).toBe(48 * 3_600_000);
      const other = await raise(server.admin, "endorsement");
      expect(
        ((await (await server.admin.get(`/v1/information_requests/${other}`)).json()) as Request).dueAt,
      ).toBeNull();
    } finally {
      await restore();
    }
  });
});
