import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, startServer, type Server } from "./fixtures";

const root = path.resolve(__dirname, "..");

/** The demo owner `npm run demo` prints (lib/demo/seed-demo-platform.ts). */
export const DEMO_OWNER = { email: "olivia@northwind.example", password: "northwind demo password" };

/**
 * A server on a database `npm run demo -- --seed-only` filled: the platform, its sub-accounts and a
 * day's worth of every object, as a newcomer sees it. For specs that look at full pages.
 */
export async function startDemoServer(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pmc-e2e-demo-"));
  const seeded = spawnSync("npx", ["--no-install", "tsx", "scripts/demo-data.ts", "--seed-only"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `file:${path.join(dataDir, "app.db")}`, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`npm run demo -- --seed-only failed:\n${seeded.stdout}\n${seeded.stderr}`);
  return startServer(env, dataDir);
}

/** Signs the demo owner in through the page, as a person does. */
export async function signInAsDemoOwner(page: Page, baseURL: string) {
  await page.goto(`${baseURL}/login`);
  await page.getByLabel("E-mail").fill(DEMO_OWNER.email);
  await page.getByLabel("Password").fill(DEMO_OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
