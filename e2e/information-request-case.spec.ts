import type { Browser, Page, TestInfo } from "@playwright/test";
import { EMPLOYEE_PASSWORD, enrolTotp, expect, OWNER, setRole, snap, startServer, test, type Server } from "./fixtures";

// A case from start to decision, on a server of its own (it turns four-eyes approval on): an officer
// opens the queue's "Unassigned" view, opens the request from it and takes it, writes a note, attaches
// a PDF (and an image), starts the review; a second reviewer rejects it with a reason code; the
// timeline shows it all, in order, with who and when.

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const NOTE = "Asked for the March invoices.\n  Customer says they follow by Friday.";

type People = { officer: { name: string }; reviewer: { name: string } };

/** The platform: four-eyes approval on, two compliance officers, and one unassigned request. */
async function platformWithTwoOfficers(browser: Browser, server: Server) {
  const owner = await browser.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  expect((await owner.request.post("/v1/setup", { data: OWNER })).status()).toBe(201);
  const { authenticator } = await enrolTotp(owner.request, server.baseURL, OWNER.password);
  const settings = await owner.request.post("/v1/settings", {
    headers: { "service-totp-code": await authenticator.next() },
    data: { fourEyesApproval: true },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const issued = await owner.request.post("/v1/api_keys", {
    headers: { "service-totp-code": await authenticator.next() },
    data: {
      name: "inviter",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      permissions: ["employees:write"],
    },
  });
  expect(issued.status(), await issued.text()).toBe(201);
  const inviter = (await issued.json()) as { secret: string };
  const raised = await owner.request.post("/v1/sandbox/information_requests", { data: { kind: "due_diligence" } });
  expect(raised.status()).toBe(201);
  const { id } = (await raised.json()) as { id: string };
  return { owner, inviterSecret: inviter.secret, requestId: id };
}

/** Invites a compliance officer and signs them in, in `page`'s browser. */
async function signedInOfficer(server: Server, inviterSecret: string, page: Page, name: string) {
  const email = `${name.split(" ")[0]!.toLowerCase()}.${Date.now().toString(36)}@acme.example`;
  const invited = await page.request.post(`${server.baseURL}/v1/employees`, {
    headers: { authorization: `Bearer ${inviterSecret}` },
    data: { name, email },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invitationUrl, id } = (await invited.json()) as { invitationUrl: string; id: string };
  const accepted = await page.request.post(`${server.baseURL}/v1/employees/invitations/accept`, {
    headers: { origin: server.baseURL },
    data: { token: new URL(invitationUrl).searchParams.get("token"), password: EMPLOYEE_PASSWORD },
  });
  expect(accepted.status()).toBe(200);
  // After accepting: a role change ends the invitation link (the employee's security stamp moves).
  setRole(server, id, "compliance");
  return { id, name };
}

/** The officer finds the request in the queue's "Unassigned" view and opens it. */
async function openFromUnassigned(page: Page, server: Server, requestId: string) {
  await page.goto(`${server.baseURL}/information-requests`);
  await page.getByRole("navigation", { name: "Queue views" }).getByRole("link", { name: "Unassigned" }).click();
  await expect(page).toHaveURL(/\?view=unassigned$/);
  const link = page.getByRole("link", { name: requestId, exact: true });
  const row = page.getByTestId("information-request-row").filter({ has: link });
  await expect(row.getByTestId("assignee")).toHaveText("Unassigned");
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/information-requests/${requestId}(\\?|$)`));
}

/** The officer's part: take the request, write a note, attach evidence, start the review. */
async function officerWorksTheCase(page: Page, server: Server, requestId: string, { officer }: People) {
  await openFromUnassigned(page, server, requestId);
  await expect(page.getByRole("heading", { name: "Due diligence request", level: 1 })).toBeVisible();
  await expect(page.getByTestId("request-assignee")).toHaveText("Unassigned");

  const assignment = page.getByRole("region", { name: "Assignment" });
  await assignment.getByRole("button", { name: "Assign to me" }).click();
  await expect(assignment.getByRole("status")).toHaveText("Assigned to you.");
  await expect(page.getByTestId("request-assignee")).toHaveText(`${officer.name} (you)`);
  await assignment.getByLabel("Priority", { exact: true }).selectOption("high");
  await assignment.getByRole("button", { name: "Save assignment" }).click();
  await expect(page.getByTestId("request-priority")).toHaveText("High");

  // A note: empty is refused in place; what is written is kept as written.
  const timeline = page.getByRole("region", { name: "Timeline" });
  await timeline.getByRole("button", { name: "Add note" }).click();
  await expect(timeline.getByRole("textbox", { name: "Add a note" })).toHaveAttribute("aria-invalid", "true");
  await timeline.getByRole("textbox", { name: "Add a note" }).fill(NOTE);
  await expect(timeline.getByText(`${NOTE.length} / 5,000`)).toBeVisible();
  await timeline.getByRole("button", { name: "Add note" }).click();
  await expect(timeline.getByTestId("timeline").locator("li[data-type=note_added]")).toContainText(
    "Customer says they follow by Friday.",
  );
  await expect(timeline.getByRole("textbox", { name: "Add a note" })).toHaveValue("");

  await attach(page, { name: "invoices.pdf", mimeType: "application/pdf", buffer: PDF });
  await expect(timeline.getByRole("status").filter({ hasText: "invoices.pdf is attached." })).toBeVisible();
  await attach(page, { name: "receipt.png", mimeType: "image/png", buffer: PNG });
  const preview = timeline.getByRole("img", { name: "Preview of receipt.png" });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);

  // Too large is stopped before sending; a file that is not what its name says is refused by the server.
  await attach(page, { name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
  await expect(timeline.getByRole("alert")).toContainText("documents may be at most 10 MB");
  await attach(page, { name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just text, not a PDF") });
  await expect(timeline.getByRole("alert")).toContainText("must be a PDF, PNG or JPEG");
  await expect(timeline.getByTestId("document")).toHaveCount(2);

  const download = page.waitForEvent("download");
  await timeline.getByRole("button", { name: "Download invoices.pdf" }).click();
  expect((await download).suggestedFilename()).toBe("invoices.pdf");

  const actions = page.getByRole("region", { name: "Actions" });
  await actions.getByRole("button", { name: "Start review" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes, start review" }).click();
  await expect(page.getByTestId("request-status")).toHaveText("on review");
  // Four-eyes: the one who started the review is told a second reviewer decides, and is not offered it.
  await expect(actions).toContainText("You started this review; a second reviewer must decide it");
  await expect(actions.getByRole("button", { name: "Reject" })).toHaveCount(0);
}

async function attach(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach file" }).click();
  await (await chooser).setFiles(file);
}

/** The second reviewer's part: a reason code is required to reject, free text too with "Other". */
async function reviewerRejects(page: Page, server: Server, requestId: string) {
  await page.goto(`${server.baseURL}/information-requests/${requestId}`);
  const actions = page.getByRole("region", { name: "Actions" });
  await actions.getByRole("button", { name: "Reject" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Yes, reject" }).click();
  await expect(dialog.getByLabel("Reason code")).toHaveAccessibleDescription(/Choose why you reject it/);
  await dialog.getByLabel("Reason code").selectOption("other");
  await dialog.getByRole("button", { name: "Yes, reject" }).click();
  await expect(dialog.getByLabel("Reason", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Reason code").selectOption({ label: "Insufficient documents" });
  await dialog.getByLabel("Reason (optional)").fill("The invoices do not cover the transfer.");
  await dialog.getByRole("button", { name: "Yes, reject" }).click();
  await expect(page.getByTestId("request-status")).toHaveText("rejected");
  await expect(page.getByTestId("decision-reason-code")).toHaveText("Insufficient documents");
}

/** Everything, oldest first, each with who did it. */
async function timelineShowsItAll(page: Page, { officer, reviewer }: People) {
  const entries = page.getByTestId("timeline").locator(":scope > li");
  const sentences = [
    /raised the request/,
    new RegExp(`${officer.name} took it`),
    new RegExp(`${officer.name} changed the priority from normal to high`),
    new RegExp(`${officer.name} added a note`),
    new RegExp(`${officer.name} attached a document`),
    new RegExp(`${officer.name} attached a document`),
    new RegExp(`${officer.name} started the review`),
    new RegExp(`${reviewer.name} rejected it`),
  ];
  await expect(entries).toHaveCount(sentences.length);
  for (const [index, sentence] of sentences.entries()) {
    await expect(entries.nth(index)).toContainText(sentence);
    await expect(entries.nth(index).locator("time")).toHaveCount(1);
  }
  // The note as written: its line break and leading spaces kept, as text.
  expect(await entries.nth(3).locator("p").nth(1).textContent()).toBe(NOTE);
  await expect(entries.nth(4)).toContainText("invoices.pdf");
  await expect(entries.nth(7)).toContainText(
    "Rejected — Insufficient documents: The invoices do not cover the transfer.",
  );
}

async function journey(browser: Browser, page: Page, testInfo: TestInfo, width: number) {
  const server = await startServer();
  let owner: Awaited<ReturnType<typeof platformWithTwoOfficers>>["owner"] | null = null;
  try {
    const platform = await platformWithTwoOfficers(browser, server);
    owner = platform.owner;
    const officer = await signedInOfficer(server, platform.inviterSecret, page, "Olivia Officer");
    const reviewerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const reviewerPage = await reviewerContext.newPage();
    const reviewer = await signedInOfficer(server, platform.inviterSecret, reviewerPage, "Sam Second");
    const people = { officer, reviewer };

    await officerWorksTheCase(page, server, platform.requestId, people);
    await snap(page, testInfo, `case-on-review-${width}`);
    await reviewerRejects(reviewerPage, server, platform.requestId);
    await snap(reviewerPage, testInfo, `case-rejected-${width}`);
    await reviewerContext.close();

    await page.reload();
    await timelineShowsItAll(page, people);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await snap(page, testInfo, `case-timeline-${width}`);
  } finally {
    await owner?.close();
    // Off the server's pages before it stops: a refetch after the stop would log a refused connection,
    // which the fixture counts as the page's error.
    await page.goto("about:blank");
    await server.stop();
  }
}

test.use({ role: "viewer" }); // the fixture's own employee is not part of this journey

test("an officer takes a request, adds a note and a PDF, starts the review; a second reviewer rejects it with a reason code", async ({
  browser,
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await journey(browser, page, testInfo, 1280);
});

test("the same journey at a phone's width (390 px)", async ({ browser, page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await journey(browser, page, testInfo, 390);
});
