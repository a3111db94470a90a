import type { APIRequestContext, Browser, Page } from "@playwright/test";
import {
  authenticatorFor,
  enrolTotp,
  expect,
  OWNER,
  scanQrCode,
  snap,
  startServer,
  test,
  type Server,
} from "./fixtures";

// The journey of roles, end to end on a server of its own (it changes platform settings): an owner
// invites a compliance officer, who joins, enrols 2FA by scanning the QR code, decides information
// requests under four-eyes approval and cannot touch API keys; then the owner offboards them and
// their open browser is signed out on its next click.

const OFFICER = { name: "Robin Okoye", email: "robin.okoye@acme.example", password: "a long compliance passphrase" };

async function raise(owner: APIRequestContext, kind: "due_diligence" | "endorsement") {
  const response = await owner.post("/v1/sandbox/information_requests", { data: { kind } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function signedInOwner(browser: Browser, server: Server): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const setup = await context.request.post("/v1/setup", { data: OWNER });
  expect(setup.status()).toBe(201);
  return context.newPage();
}

test.use({ role: "viewer" }); // the fixture's own employee is not part of this journey

test("an owner invites a compliance officer, who decides requests under four-eyes approval, cannot manage keys, and is signed out once deactivated", async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const server = await startServer();
  try {
    const owner = await signedInOwner(browser, server);
    const { authenticator: ownerCodes } = await enrolTotp(owner.request, server.baseURL, OWNER.password);

    // Four-eyes approval on, from the Settings page, with a code.
    await owner.goto("/settings");
    const settings = owner.getByRole("form", { name: "Platform settings" });
    await settings.getByRole("switch", { name: "Four-eyes approval" }).check();
    await settings.getByRole("button", { name: "Save settings" }).click();
    const saveDialog = owner.getByRole("dialog", { name: "Save settings" });
    await saveDialog.getByLabel("Authenticator code").fill(await ownerCodes.next());
    await saveDialog.getByRole("button", { name: "Save settings" }).click();
    await expect(owner.getByTestId("setting-fourEyesApproval-state")).toHaveText("On");

    // The invitation, as a compliance officer.
    await owner.goto("/employees");
    await owner.getByRole("button", { name: "Invite employee" }).click();
    const invite = owner.getByRole("dialog");
    await invite.getByLabel("Name").fill(OFFICER.name);
    await invite.getByLabel("E-mail").fill(OFFICER.email);
    await invite.getByRole("group", { name: "Role" }).getByRole("radio", { name: "Compliance" }).check();
    await invite.getByLabel("Authenticator code").fill(await ownerCodes.next());
    await invite.getByRole("button", { name: "Invite" }).click();
    const link = await invite.getByTestId("invitation-url").textContent();
    expect(link).toMatch(/\/invitations\/accept\?token=/);
    await snap(owner, testInfo, "1-invited-compliance");
    await invite.getByTestId("shown-once-saved").check();
    await invite.getByRole("button", { name: "Done" }).click();

    // The officer joins in a browser of their own and enrols 2FA by scanning the QR code.
    const officer = await (await browser.newContext({ baseURL: server.baseURL })).newPage();
    await officer.goto(link!);
    await officer.getByLabel("Password", { exact: true }).fill(OFFICER.password);
    await officer.getByLabel("Repeat password").fill(OFFICER.password);
    await officer.getByRole("button", { name: "Activate account" }).click();
    await expect(officer).toHaveURL(/\/security$/);
    await officer
      .getByRole("form", { name: "Set up two-factor authentication" })
      .getByLabel("Current password")
      .fill(OFFICER.password);
    await officer.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const uri = await scanQrCode(officer.getByTestId("totp-qr"));
    const officerCodes = authenticatorFor(uri.searchParams.get("secret")!);
    await officer.getByLabel("Authenticator code").fill(await officerCodes.next());
    await officer.getByRole("button", { name: "Turn on" }).click();
    await expect(officer.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await officer.getByRole("button", { name: "I have saved them" }).click();
    await expect(officer.getByTestId("two-factor-status")).toHaveText("On");

    // Key management is not theirs: no link, and the page says why.
    const nav = officer.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Information requests" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Employees" })).toHaveCount(0);
    await officer.goto("/api-keys");
    await expect(
      officer
        .getByRole("alert")
        .filter({ hasText: "Your role (compliance) does not allow this: it needs the api_keys:read permission" }),
    ).toBeVisible();
    await expect(officer.getByRole("button", { name: "Issue key" })).toHaveCount(0);
    await snap(officer, testInfo, "2-officer-no-keys");

    // Under four-eyes approval: the officer starts a review but a second reviewer must decide it...
    const theirs = await raise(owner.request, "due_diligence");
    await officer.goto(`/information-requests/${theirs}`);
    const actions = officer.getByRole("region", { name: "Actions" });
    await actions.getByRole("button", { name: "Start review" }).click();
    await officer.getByRole("dialog").getByRole("button", { name: "Yes, start review" }).click();
    await expect(officer.getByTestId("request-status")).toHaveText("on review");
    await expect(actions).toContainText("You started this review; a second reviewer must decide it");
    await expect(actions.getByRole("button")).toHaveText(["Expire"]);
    await snap(officer, testInfo, "3-four-eyes");

    // ...while on a request the owner started reviewing, the officer is the second reviewer and rejects it, with a reason code and a reason.
    const ownersReview = await raise(owner.request, "endorsement");
    expect(
      (
        await owner.request.post(`/v1/information_requests/${ownersReview}/status`, { data: { status: "on_review" } })
      ).status(),
    ).toBe(200);
    await officer.goto(`/information-requests/${ownersReview}`);
    await actions.getByRole("button", { name: "Reject" }).click();
    const decide = officer.getByRole("dialog");
    await decide.getByLabel("Reason code").selectOption("other");
    await decide.getByLabel("Reason", { exact: true }).fill("The endorsement letter is not signed by a director.");
    await decide.getByRole("button", { name: "Yes, reject" }).click();
    await expect(officer.getByTestId("request-status")).toHaveText("rejected");
    const history = officer.getByTestId("timeline");
    await expect(history).toContainText(`${OWNER.name} started the review`);
    await expect(history).toContainText(`${OFFICER.name} rejected it`);
    await expect(history).toContainText("The endorsement letter is not signed by a director.");
    await snap(officer, testInfo, "4-rejected-with-reason");

    // The owner decides the officer's review: the second pair of eyes.
    await owner.goto(`/information-requests/${theirs}`);
    await owner.getByRole("region", { name: "Actions" }).getByRole("button", { name: "Approve" }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Yes, approve" }).click();
    await expect(owner.getByTestId("timeline")).toContainText(`${OFFICER.name} started the review`);
    await expect(owner.getByTestId("timeline")).toContainText(`${OWNER.name} approved it`);

    // Offboarding: the owner deactivates the officer, whose open page is signed out on its next click.
    await officer.goto("/information-requests");
    await expect(officer.getByRole("heading", { name: "Information requests", level: 1 })).toBeVisible();
    await owner.goto("/employees");
    await owner.getByRole("button", { name: `Deactivate ${OFFICER.name}` }).click();
    const deactivate = owner.getByRole("dialog");
    await deactivate.getByLabel("Authenticator code").fill(await ownerCodes.next());
    await deactivate.getByRole("button", { name: "Deactivate" }).click();
    await expect(owner.getByRole("row").filter({ hasText: OFFICER.email })).toContainText("deactivated");
    await snap(owner, testInfo, "5-deactivated");

    await nav.getByRole("link", { name: "KYC" }).click();
    await expect(officer).toHaveURL(/\/login\?next=%2Fkyc$/);
    await officer.getByLabel("E-mail").fill(OFFICER.email);
    await officer.getByLabel("Password").fill(OFFICER.password);
    await officer.getByRole("button", { name: "Sign in" }).click();
    await expect(officer.getByRole("alert").filter({ hasText: "e-mail address or password is wrong" })).toBeVisible();
    await snap(officer, testInfo, "6-officer-signed-out");
  } finally {
    await server.stop();
  }
});
