import type { APIRequestContext } from "@playwright/test";
import { expect, OWNER, snap, test } from "./fixtures";

type Kind = "due_diligence" | "endorsement";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function created<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

/** A transfer to a new recipient, and a KYC submission: what a request can concern. */
async function transferAndSubmission(admin: APIRequestContext) {
  const recipient = await created<{ id: string }>(
    await admin.post("/v1/sandbox/recipients", { data: { name: `Supplier ${run()}` } }),
  );
  const transfer = await created<{ id: string }>(
    await admin.post("/v1/sandbox/transfers", {
      data: { recipientId: recipient.id, amount: "125.50", currency: "EUR" },
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
  return { transfer, submission };
}

async function raise(admin: APIRequestContext, kind: Kind, links: { transferId?: string; submissionId?: string } = {}) {
  const request = await created<{ id: string }>(
    await admin.post("/v1/sandbox/information_requests", { data: { kind, ...links } }),
  );
  return request.id;
}

/** Moves a request as another employee would, with the reason code and reason a rejection or expiry needs. */
async function moveViaApi(admin: APIRequestContext, id: string, status: string) {
  const decision =
    status === "rejected" || status === "expired"
      ? { reasonCode: "other", reason: "Decided elsewhere meanwhile." }
      : {};
  const response = await admin.post(`/v1/information_requests/${id}/status`, { data: { status, ...decision } });
  expect(response.status(), await response.text()).toBe(200);
}

const requestLink = (page: import("@playwright/test").Page, id: string) =>
  page.getByRole("link", { name: id, exact: true });

test.describe("information requests", () => {
  test("filters by kind and dates live in the URL: they survive a reload, and back/forward steps through them", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const diligence = await raise(server.admin, "due_diligence");
    const endorsement = await raise(server.admin, "endorsement");
    const today = utcDay();

    await page.goto("/information-requests");
    await expect(page.getByRole("heading", { name: "Information requests", level: 1 })).toBeVisible();
    await expect(requestLink(page, endorsement)).toBeVisible();
    await expect(requestLink(page, diligence)).toBeVisible();

    await page.getByLabel("Kind").selectOption("endorsement");
    await expect(page).toHaveURL(/\?kind=endorsement$/);
    await expect(requestLink(page, endorsement)).toBeVisible();
    await expect(requestLink(page, diligence)).toHaveCount(0);
    const kinds = await page.getByTestId("kind").allTextContents();
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(["Endorsement"]));

    await page.getByLabel("Created from").fill(today);
    await page.getByLabel("Created to").fill(today);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`kind=endorsement&startDate=${today}&endDate=${today}$`));
    await expect(requestLink(page, endorsement)).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Kind")).toHaveValue("endorsement");
    await expect(page.getByLabel("Created from")).toHaveValue(today);
    await expect(page.getByLabel("Created to")).toHaveValue(today);
    await expect(requestLink(page, endorsement)).toBeVisible();
    await expect(requestLink(page, diligence)).toHaveCount(0);
    await snap(page, testInfo, "information-requests-filtered");

    // Nothing created tomorrow: the empty state says so and offers to clear the filters.
    await page.getByLabel("Created from").fill(utcDay(1));
    await page.getByLabel("Created to").fill("");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("No information requests match these filters.")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);

    // A reversed range: the API's 422 appears under the filter it names.
    await page.getByLabel("Created from").fill(today);
    await page.getByLabel("Created to").fill(utcDay(-1));
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("must not be after endDate")).toBeVisible();
    await expect(page.getByLabel("Created from")).toHaveAttribute("aria-invalid", "true");
    await snap(page, testInfo, "information-requests-filter-error");

    // Back and forward walk through the filters, inputs and list included.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`startDate=${utcDay(1)}$`));
    await expect(page.getByLabel("Created from")).toHaveValue(utcDay(1));
    await expect(page.getByText("No information requests match these filters.")).toBeVisible();
    await page.goBack();
    await expect(page.getByLabel("Created to")).toHaveValue(today);
    await expect(requestLink(page, endorsement)).toBeVisible();
    await page.goForward();
    await expect(page.getByText("No information requests match these filters.")).toBeVisible();

    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await expect(page).toHaveURL(/\/information-requests$/);
    await expect(page.getByLabel("Kind")).toHaveValue("");
    await expect(requestLink(page, diligence)).toBeVisible();
  });

  test("pages twenty at a time with next and previous; the page is in the URL too", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const ids: string[] = [];
    for (let i = 0; i < 25; i += 1) ids.push(await raise(server.admin, i % 2 ? "endorsement" : "due_diligence"));
    const newest = ids.at(-1)!;
    const twentyFirst = ids.at(-21)!;

    await page.goto("/information-requests");
    await expect(page.getByTestId("information-request-row")).toHaveCount(20);
    await expect(requestLink(page, newest)).toBeVisible();
    await expect(requestLink(page, twentyFirst)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();
    await expect(page.getByText("Page 1", { exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page).toHaveURL(/[?&]next=[A-Za-z0-9_-]+/);
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect(requestLink(page, twentyFirst)).toBeVisible();
    await expect(requestLink(page, newest)).toHaveCount(0);
    await snap(page, testInfo, "information-requests-page-2");

    await page.reload();
    await expect(requestLink(page, twentyFirst)).toBeVisible();

    await page.getByRole("button", { name: "Previous page" }).click();
    await expect(page).toHaveURL(/\/information-requests$/);
    await expect(requestLink(page, newest)).toBeVisible();
    await page.goBack();
    await expect(requestLink(page, twentyFirst)).toBeVisible();
  });

  test("detail: fields, its transfer and KYC submission, and only the legal transitions, through to approved", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const { transfer, submission } = await transferAndSubmission(server.admin);
    const id = await raise(server.admin, "due_diligence", { transferId: transfer.id, submissionId: submission.id });

    await page.goto("/information-requests");
    const row = page.getByTestId("information-request-row").filter({ has: requestLink(page, id) });
    // Each link's visible text is its name: the id shortened, whole on hover.
    const short = (id: string) => `${id.slice(0, 8)}…${id.slice(-4)}`;
    await expect(row.getByRole("link", { name: `Transfer ${short(transfer.id)}`, exact: true })).toHaveAttribute(
      "title",
      transfer.id,
    );
    const kyc = row.getByRole("link", { name: `KYC submission ${short(submission.id)}`, exact: true });
    await expect(kyc).toHaveAttribute("href", `/kyc/submissions/${submission.id}`);
    await expect(kyc).toHaveAttribute("title", submission.id);
    await requestLink(page, id).click();

    await expect(page).toHaveURL(new RegExp(`/information-requests/${id}$`));
    await expect(page.getByRole("heading", { name: "Due diligence request", level: 1 })).toBeVisible();
    await expect(page.getByTestId("request-status")).toHaveText("requested");
    await expect(page.getByTestId("transfer-amount")).toHaveText("€125.50");
    await expect(page.getByRole("link", { name: `Open KYC submission ${submission.id}` })).toHaveAttribute(
      "href",
      `/kyc/submissions/${submission.id}`,
    );

    // From requested: start review or expire; approving or rejecting is not offered.
    const actions = page.getByRole("region", { name: "Actions" });
    await expect(actions.getByRole("button")).toHaveText(["Start review", "Expire"]);
    await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reject" })).toHaveCount(0);
    await snap(page, testInfo, "information-request-detail");

    // The confirmation guards the move: cancelling changes nothing.
    await actions.getByRole("button", { name: "Start review" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`Start review information request ${id}?`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("request-status")).toHaveText("requested");

    await actions.getByRole("button", { name: "Start review" }).click();
    await dialog.getByRole("button", { name: "Yes, start review" }).click();
    await expect(page.getByTestId("request-status")).toHaveText("on review");
    await expect(actions.getByRole("status")).toHaveText("Moved to on review.");
    await expect(actions.getByRole("button")).toHaveText(["Approve", "Reject", "Expire"]);
    const history = page.getByTestId("timeline");
    await expect(history).toContainText(`${employee.name} started the review`);

    await actions.getByRole("button", { name: "Approve" }).click();
    await expect(dialog).toContainText("Approved is final");
    await dialog.getByLabel("Reason (optional)").fill("Invoices match the transfer.");
    await dialog.getByRole("button", { name: "Yes, approve" }).click();
    await expect(page.getByTestId("request-status")).toHaveText("approved");
    await expect(history).toContainText(`${employee.name} approved it`);
    await expect(history).toContainText("Approved: Invoices match the transfer.");
    await expect(actions.getByRole("button")).toHaveCount(0);
    await expect(actions).toContainText("No further actions");
    const stored = (await (await server.admin.get(`/v1/information_requests/${id}`)).json()) as { status: string };
    expect(stored.status).toBe("approved");
    await snap(page, testInfo, "information-request-approved");

    // The transfer link shows the transfer and every request raised against it.
    await page.getByRole("link", { name: "All requests raised against this transfer" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?transferId=${transfer.id}$`));
    await expect(page.getByRole("heading", { name: "Information requests for a transfer" })).toBeVisible();
    await expect(requestLink(page, id)).toBeVisible();
    await expect(page.getByText("€125.50")).toBeVisible();
  });

  test("a stale page: the request moved through the API meanwhile, so the action answers 409 next to the actions and the page shows the new status", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const id = await raise(server.admin, "endorsement");
    await page.goto(`/information-requests/${id}`);
    const actions = page.getByRole("region", { name: "Actions" });
    await expect(actions.getByRole("button")).toHaveText(["Start review", "Expire"]);

    // Someone else starts the review while this page still shows "requested".
    await moveViaApi(server.admin, id, "on_review");
    await actions.getByRole("button", { name: "Start review" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes, start review" }).click();
    await expect(actions.getByRole("alert")).toContainText("Someone else changed this request meanwhile");
    await expect(actions.getByRole("alert")).toContainText("cannot move from on_review to on_review");
    await expect(page.getByTestId("request-status")).toHaveText("on review");
    await expect(actions.getByRole("button")).toHaveText(["Approve", "Reject", "Expire"]);
    await snap(page, testInfo, "information-request-conflict");

    // And again from a final state: rejected meanwhile, so approving is refused and nothing is offered any more.
    await moveViaApi(server.admin, id, "rejected");
    await actions.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes, approve" }).click();
    await expect(actions.getByRole("alert")).toContainText("cannot move from rejected to approved");
    await expect(page.getByTestId("request-status")).toHaveText("rejected");
    await expect(actions.getByRole("button")).toHaveCount(0);
  });

  test("rejecting needs a reason code, refused under the field when missing, and a reason with Other; the timeline then says who decided and why", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    const id = await raise(server.admin, "due_diligence");
    await moveViaApi(server.admin, id, "on_review");
    await page.goto(`/information-requests/${id}`);
    const actions = page.getByRole("region", { name: "Actions" });
    await actions.getByRole("button", { name: "Reject" }).click();
    const dialog = page.getByRole("dialog");
    const code = dialog.getByLabel("Reason code");
    await dialog.getByRole("button", { name: "Yes, reject" }).click();
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await expect(code).toHaveAccessibleDescription(/Choose why you reject it/);
    await code.selectOption("other");
    await dialog.getByRole("button", { name: "Yes, reject" }).click();
    const reason = dialog.getByLabel("Reason", { exact: true });
    await expect(reason).toHaveAttribute("aria-invalid", "true");
    await expect(reason).toHaveAccessibleDescription(/with "Other", the reason is required/);
    await expect(page.getByTestId("request-status")).toHaveText("on review");
    await reason.fill("The customer sent no proof of the source of funds.");
    await snap(page, testInfo, "reject-with-reason");
    await dialog.getByRole("button", { name: "Yes, reject" }).click();
    await expect(page.getByTestId("request-status")).toHaveText("rejected");
    await expect(page.getByTestId("decision-reason-code")).toHaveText("Other");
    const history = page.getByTestId("timeline");
    await expect(history).toContainText(`${employee.name} rejected it`);
    await expect(history).toContainText("Rejected — Other: The customer sent no proof of the source of funds.");
    await expect(history).toContainText(`${OWNER.name} started the review`);
    await snap(page, testInfo, "review-history");
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, testInfo, "review-history-phone");
  });

  test.describe("as a viewer", () => {
    test.use({ role: "viewer" });
    test("the request and its timeline are shown, but no actions, assignment, note box or upload", async ({
      page,
      server,
    }) => {
      const id = await raise(server.admin, "endorsement");
      await page.goto(`/information-requests/${id}`);
      await expect(page.getByTestId("request-status")).toHaveText("requested");
      await expect(page.getByTestId("timeline")).toContainText("raised the request");
      await expect(page.getByRole("region", { name: "Actions" })).toHaveCount(0);
      await expect(page.getByRole("region", { name: "Assignment" })).toHaveCount(0);
      await expect(page.getByRole("textbox", { name: "Add a note" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Attach file" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Start review" })).toHaveCount(0);
    });
  });

  test("empty and error states, and the list at phone width", async ({ page, server, employee }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const { transfer } = await transferAndSubmission(server.admin);
    await page.goto(`/information-requests?transferId=${transfer.id}`);
    await expect(page.getByText("No information requests were raised against this transfer.")).toBeVisible();

    await page.goto("/information-requests/ir_doesnotexist");
    await expect(page.getByRole("alert").filter({ hasText: "Information request not found" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();

    await page.goto(`/information-requests?transferId=tr_doesnotexist`);
    await expect(page.getByRole("alert").filter({ hasText: "Transfer not found" }).first()).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await raise(server.admin, "endorsement", { transferId: transfer.id });
    await page.goto("/information-requests");
    await expect(page.getByTestId("information-request-row").first()).toBeVisible();
    // The page itself never scrolls sideways; only the table does, inside its frame.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, testInfo, "information-requests-phone");
  });
});
