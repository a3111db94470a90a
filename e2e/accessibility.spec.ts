import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { dashboardLinks } from "../components/nav-links";
import { signInAsDemoOwner, startDemoServer } from "./demo-server";
import { expect, test, type Server } from "./fixtures";

// axe-core finds no serious or critical violation (WCAG 2.1 A and AA) on any page, with a
// day's worth of data on it, at a laptop's width and a phone's.

const WIDTHS = [
  { name: "laptop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/** The detail pages a list links to: the first of each kind the demo data has. */
const DETAIL_PAGES = [
  { list: "/information-requests", detail: /^\/information-requests\/[^/?]+/ },
  { list: "/employees", detail: /^\/employees\/emp_[^/?]+/ },
  { list: "/kyc", detail: /^\/kyc\/submissions\/[^/?]+/ },
  { list: "/webhooks", detail: /^\/webhooks\/[^/?]+/ },
  { list: "/api-keys", detail: /^\/api-keys\/key_[^/?]+/ },
];

let server: Server;
test.beforeAll(async () => {
  server = await startDemoServer();
});
test.afterAll(async () => {
  await server?.stop();
});

async function seriousViolations(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.getByText("Loading…")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
    }));
}

/** Every page to check: the navigation's, the detail pages the lists link to, and the public ones. */
async function pagesToCheck(page: Page): Promise<string[]> {
  const pages = dashboardLinks.map((link) => link.href);
  for (const { list, detail } of DETAIL_PAGES) {
    await page.goto(`${server.baseURL}${list}`);
    await page.waitForLoadState("networkidle");
    const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    const found = hrefs.find((href) => detail.test(href));
    if (found) pages.push(found);
  }
  return [...pages, "/kyc/profile", "/audit-log/verify", "/docs"];
}

for (const { name, width, height } of WIDTHS) {
  test(`no serious or critical accessibility violation on any page (${name}, ${width} px)`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height });
    await page.goto(`${server.baseURL}/login`);
    const signedOut = await seriousViolations(page);
    expect(signedOut, "/login").toEqual([]);
    await signInAsDemoOwner(page, server.baseURL);
    const pages = await pagesToCheck(page);
    expect(pages.length).toBeGreaterThanOrEqual(dashboardLinks.length + DETAIL_PAGES.length);
    const found: Record<string, unknown> = {};
    for (const path of pages) {
      await page.goto(`${server.baseURL}${path}`);
      const violations = await seriousViolations(page);
      if (violations.length) found[path] = violations;
    }
    expect(found).toEqual({});
  });
}
