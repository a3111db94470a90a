import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, defineConfig } from "@playwright/test";

// One server for the whole run, on a fixed port, with a database in a fresh temporary directory.
const PORT = Number(process.env.E2E_PORT || 3100);
const baseURL = `http://127.0.0.1:${PORT}`;

// The config is loaded again in every worker process; workers inherit the runner's environment, so
// the directory is made once per run (by the runner) and reused by the workers' copies of the config.
process.env.E2E_DATA_DIR ||= mkdtempSync(path.join(os.tmpdir(), `pmc-e2e-${Date.now()}-`));
const dataDirectory = process.env.E2E_DATA_DIR;
// First-run setup needs a token: one per run, for this webServer and the servers specs start (e2e/fixtures.ts).
process.env.E2E_SETUP_TOKEN ||= `e2e-${randomBytes(18).toString("base64url")}`;

/**
 * Browser tests (added later) run on a system Chromium when Playwright's own build is not installed
 * (no network here to download it): PLAYWRIGHT_CHROMIUM_PATH, or else /usr/bin/chromium.
 */
function chromiumLaunchOptions() {
  let bundled = false;
  try {
    const bundledPath = chromium.executablePath();
    bundled = Boolean(bundledPath) && existsSync(bundledPath);
  } catch {
    bundled = false;
  }
  if (bundled) return {};
  const systemPath =
    process.env.PLAYWRIGHT_CHROMIUM_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  if (!systemPath) return {};
  return {
    executablePath: systemPath,
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  };
}

export default defineConfig({
  testDir: "e2e",
  // Screenshots and traces; a run with its own build directory keeps its own artifacts too.
  outputDir: process.env.NEXT_DIST_DIR ? `test-results/${path.basename(process.env.NEXT_DIST_DIR)}` : "test-results",
  // The tests share one server and its one-time /v1/setup, so they run one at a time, in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: "list",
  // The slowest test took 66 s on a machine run at a fifth of this one's speed: room for slower ones.
  timeout: 240_000,
  // Some machines here run pages and requests ten times slower than others: an expectation waits
  // long enough for a slow one (a passing check returns as soon as it holds, so fast machines lose nothing).
  expect: { timeout: 20_000 },
  use: {
    baseURL,
    screenshot: "only-on-failure",
    // Dates and money are written in the browser's locale: one fixed locale, so specs can spell them out.
    locale: "en-US",
    launchOptions: chromiumLaunchOptions(),
  },
  // The black-box API spec (e2e/api.spec.ts) runs against this server at the real password-hashing
  // cost; servers the specs start themselves (e2e/fixtures.ts) hash at test cost.
  webServer: {
    command: "node scripts/start.mjs",
    url: `${baseURL}/healthz`,
    // Includes the build when `npm run test:e2e` runs alone on stale sources (`npm test` builds first).
    timeout: 900_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      DATABASE_URL: `file:${path.join(dataDirectory, "e2e.db")}`,
      NEXT_TELEMETRY_DISABLED: "1",
      TRUST_PROXY: "false",
      SANDBOX: "on",
      SETUP_TOKEN: process.env.E2E_SETUP_TOKEN,
    },
  },
});
