import type { APIRequestContext } from "@playwright/test";
import { expect, snap, test } from "./fixtures";

type Owner = { type: "individual" | "business"; country: string; roles: string[]; shareSize: number; name?: string };

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function submission(
  admin: APIRequestContext,
  beneficiaries: Owner[],
  type: "individual" | "business" = "business",
) {
  const response = await admin.post("/v1/sandbox/kyc/submissions", { data: { type, beneficiaries } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test.describe("KYC", () => {
  test("a submission's owners with country names, the ownership chart, and shares that miss 100% flagged", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const tag = run();
    const partial = await submission(server.admin, [
      { type: "individual", country: "DE", roles: ["ubo", "director"], shareSize: 50, name: `Greta Graf ${tag}` },
      { type: "business", country: "GB", roles: ["shareholder"], shareSize: 35, name: `Thames Holdings ${tag}` },
    ]);
    const complete = await submission(server.admin, [
      { type: "individual", country: "FR", roles: ["ubo"], shareSize: 33.33 },
      { type: "individual", country: "JP", roles: ["shareholder"], shareSize: 33.33 },
      { type: "individual", country: "BR", roles: ["representative", "shareholder"], shareSize: 33.34 },
    ]);

    await page.goto("/kyc");
    await expect(page.getByRole("heading", { name: "KYC", level: 1 })).toBeVisible();
    const partialRow = page
      .getByTestId("kyc-submission-row")
      .filter({ has: page.getByRole("link", { name: partial }) });
    await expect(partialRow).toContainText("85%, not 100%");
    const completeRow = page
      .getByTestId("kyc-submission-row")
      .filter({ has: page.getByRole("link", { name: complete }) });
    await expect(completeRow).toContainText("100%");
    await expect(completeRow).not.toContainText("not 100%");
    await expect(page.getByRole("link", { name: "Applicant profile", exact: true })).toHaveAttribute(
      "href",
      "/kyc/profile",
    );
    await snap(page, testInfo, "kyc-submissions");

    await page.getByRole("link", { name: partial }).click();
    await expect(page).toHaveURL(new RegExp(`/kyc/submissions/${partial}$`));
    await expect(page.getByRole("heading", { name: "Business KYC submission", level: 1 })).toBeVisible();
    const owners = page.getByRole("table", { name: "Beneficial owners" });
    await expect(owners.getByRole("row", { name: new RegExp(`Greta Graf ${tag}`) })).toContainText("Germany (DE)");
    await expect(owners.getByRole("row", { name: new RegExp(`Greta Graf ${tag}`) })).toContainText(
      "Ultimate beneficial owner, Director",
    );
    await expect(owners.getByRole("row", { name: new RegExp(`Thames Holdings ${tag}`) })).toContainText(
      "United Kingdom (GB)",
    );
    await expect(owners.getByRole("row", { name: new RegExp(`Thames Holdings ${tag}`) })).toContainText("Business");
    await expect(page.getByTestId("total-share")).toHaveText("85%");

    const warning = page.getByRole("alert").filter({ hasText: "Shares add up to 85%, not 100%." });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText("15% of the ownership is not accounted for");
    const chart = page.getByRole("img", { name: /^Ownership shares:/ });
    await expect(chart).toHaveAttribute(
      "aria-label",
      `Ownership shares: Greta Graf ${tag} 50%, Thames Holdings ${tag} 35%, not accounted for 15%. Total 85%, not 100%.`,
    );
    await expect(chart).toContainText("Not accounted for");
    await snap(page, testInfo, "kyc-submission-incomplete");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(chart).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, testInfo, "kyc-submission-phone");
    await page.setViewportSize({ width: 1280, height: 720 });

    // Shares that do add up (33.33 + 33.33 + 33.34) are not flagged.
    await page.goto(`/kyc/submissions/${complete}`);
    await expect(page.getByRole("table", { name: "Beneficial owners" })).toContainText("Brazil (BR)");
    await expect(page.getByTestId("total-share")).toHaveText("100%");
    await expect(page.getByRole("img", { name: /^Ownership shares:/ })).toHaveAttribute("aria-label", /Total 100%\.$/);
    await expect(page.getByTestId("share-warning")).toHaveCount(0);

    // No owners at all: flagged too, and the empty state says so.
    const ownerless = await submission(server.admin, [], "individual");
    await page.goto(`/kyc/submissions/${ownerless}`);
    await expect(page.getByTestId("share-warning")).toContainText("Shares add up to 0%, not 100%.");
    await expect(page.getByText("No beneficial owners recorded.")).toBeVisible();

    await page.goto("/kyc/submissions/sub_doesnotexist");
    await expect(page.getByRole("alert").filter({ hasText: "KYC submission not found" })).toBeVisible();
  });

  test("accepting an agreement: listed once accepted; a bad IP and a duplicate are refused under their fields", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    const id = await submission(server.admin, [
      { type: "individual", country: "NL", roles: ["ubo"], shareSize: 100, name: "Noor de Vries" },
    ]);
    const documentSetId = `terms-${run()}`;
    await page.goto(`/kyc/submissions/${id}`);
    const agreements = page.getByRole("region", { name: "Agreements" });
    await expect(agreements.getByText("No agreements accepted yet.")).toBeVisible();

    // Checked in the browser with the API's own schema: nothing is sent.
    await agreements.getByRole("button", { name: "Record acceptance" }).click();
    await expect(agreements.getByText("must be 1-128 characters of letters, digits and . _ : -")).toBeVisible();
    await agreements.getByLabel("Document set ID").fill(documentSetId);
    await agreements.getByLabel("Applicant IP address (optional)").fill("203.0.113.300");
    await agreements.getByRole("button", { name: "Record acceptance" }).click();
    await expect(
      agreements.getByText("must be an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8::1"),
    ).toBeVisible();
    await expect(agreements.getByLabel("Applicant IP address (optional)")).toHaveAttribute("aria-invalid", "true");

    await agreements.getByLabel("Applicant IP address (optional)").fill("203.0.113.7");
    await agreements.getByRole("button", { name: "Record acceptance" }).click();
    await expect(agreements.getByRole("status")).toContainText(`Accepted document set ${documentSetId}.`);
    const row = agreements.getByTestId("agreement-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(documentSetId);
    await expect(row).toContainText("203.0.113.7");
    await expect(agreements.getByLabel("Document set ID")).toHaveValue("");

    // The same document set again: the API's 409 is shown under the document set field.
    await agreements.getByLabel("Document set ID").fill(documentSetId);
    await agreements.getByRole("button", { name: "Record acceptance" }).click();
    await expect(agreements.getByText("already accepted for this submission")).toBeVisible();
    await expect(agreements.getByLabel("Document set ID")).toHaveAttribute("aria-invalid", "true");
    await expect(row).toHaveCount(1);
    await snap(page, testInfo, "kyc-agreement-duplicate");

    // Without an IP address it is recorded as not given.
    await agreements.getByLabel("Document set ID").fill(`privacy-${run()}`);
    await agreements.getByRole("button", { name: "Record acceptance" }).click();
    await expect(agreements.getByTestId("agreement-row")).toHaveCount(2);
    await expect(agreements.getByTestId("agreement-row").nth(1)).toContainText("Not recorded");
    await page.reload();
    await expect(page.getByRole("region", { name: "Agreements" }).getByTestId("agreement-row")).toHaveCount(2);
  });

  test("the applicant profile form: errors under the fields, then a save that sends only the changed fields", async ({
    page,
    server,
    employee,
  }, testInfo) => {
    expect(employee.id).toMatch(/^emp_/);
    // A known starting point, set through the API.
    const lastName = `Lovelace-${run()}`;
    const seeded = await server.admin.post("/v1/kyc/update_profile", {
      data: {
        firstName: "Ada",
        lastName,
        email: "ada@acme.example",
        address: { line1: "1 Main St", city: "London", postalCode: "SW1A 1AA", country: "GB" },
      },
    });
    expect(seeded.status()).toBe(200);

    await page.goto("/kyc");
    await page.getByRole("link", { name: "Edit the applicant profile" }).click();
    await expect(page).toHaveURL(/\/kyc\/profile$/);
    await expect(page.getByRole("heading", { name: "Applicant profile", level: 1 })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Ada");
    await expect(page.getByLabel("Last name")).toHaveValue(lastName);
    await expect(page.getByLabel("Country")).toHaveValue("GB");
    await expect(page.getByLabel("Country").locator("option:checked")).toHaveText("United Kingdom");

    // Nothing changed yet: nothing to send.
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status")).toHaveText("Nothing to save: no field differs from the stored profile.");

    // A birth date in the future and a phone number that is not E.164: refused under the fields, nothing sent.
    let posted = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/v1/kyc/update_profile")) posted += 1;
    });
    await page.getByLabel("Date of birth").fill(utcDay(2));
    await page.getByLabel("Phone").fill("0151 1234567");
    await page.getByLabel("City").fill("");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("must be in the past")).toBeVisible();
    await expect(page.getByText("must be an E.164 number such as +4915112345678")).toBeVisible();
    await expect(page.getByText("must not be empty")).toBeVisible();
    await expect(page.getByLabel("Date of birth")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("City")).toHaveAttribute("aria-invalid", "true");
    await snap(page, testInfo, "kyc-profile-errors");
    expect(posted).toBe(0);

    // An error only the server finds (the request rewritten on its way, as a stale client might send): shown under its field.
    await page.getByLabel("Date of birth").fill("1985-12-10");
    await page.getByLabel("Phone").fill("+4915112345678");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Country").selectOption({ label: "Germany" });
    await page.route("**/v1/kyc/update_profile", (route) =>
      route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), nationality: "XX" }) }),
    );
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("is not an ISO 3166-1 alpha-2 country code")).toBeVisible();
    await expect(page.getByLabel("Nationality")).toHaveAttribute("aria-invalid", "true");
    await page.unroute("**/v1/kyc/update_profile");

    // Saved: only what changed goes out (the address whole, as the API replaces it whole).
    await page.getByLabel("Nationality").selectOption("DE");
    const sent = page.waitForRequest(
      (request) => request.url().endsWith("/v1/kyc/update_profile") && request.method() === "POST",
    );
    await page.getByRole("button", { name: "Save profile" }).click();
    expect((await sent).postDataJSON()).toEqual({
      dateOfBirth: "1985-12-10",
      nationality: "DE",
      phone: "+4915112345678",
      address: { line1: "1 Main St", city: "Berlin", postalCode: "SW1A 1AA", country: "DE" },
    });
    await expect(page.getByRole("status")).toHaveText("Profile saved (4 fields updated).");
    await expect(page.getByText("must be in the past")).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel("Date of birth")).toHaveValue("1985-12-10");
    await expect(page.getByLabel("Nationality").locator("option:checked")).toHaveText("Germany");
    await expect(page.getByLabel("City")).toHaveValue("Berlin");
    const stored = (await (await server.admin.get("/v1/kyc/profile")).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({
      firstName: "Ada",
      lastName,
      phone: "+4915112345678",
      nationality: "DE",
      email: "ada@acme.example",
    });
    await snap(page, testInfo, "kyc-profile");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByLabel("First name")).toHaveValue("Ada");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, testInfo, "kyc-profile-phone");
  });
});
