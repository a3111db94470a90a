import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, snapAlsoOnPhone, test, type Server } from "./fixtures";

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Works on the server's SQLite database straight (what someone with the disk could do). */
function withDatabase<T>(server: Server, work: (db: Database.Database) => T): T {
  const db = new Database(path.join(server.dataDir, "app.db"));
  try {
    db.pragma("busy_timeout = 5000");
    return work(db);
  } finally {
    db.close();
  }
}

/**
 * Holds the sealer's lease (WorkerLease "audit-sealer") for this test, so events stay pending, and
 * answers a function that lets it go: the sealer takes the lease at its next pass (every 5 s) and seals.
 */
async function holdSealer(server: Server): Promise<() => void> {
  const setLease = (until: Date) =>
    withDatabase(server, (db) => {
      const row = db.prepare(`SELECT leaseUntil FROM "WorkerLease" WHERE name = 'audit-sealer'`).get() as
        { leaseUntil: unknown } | undefined;
      if (!row) return false;
      const value = typeof row.leaseUntil === "number" ? until.getTime() : until.toISOString();
      db.prepare(`UPDATE "WorkerLease" SET owner = 'e2e-hold', leaseUntil = ? WHERE name = 'audit-sealer'`).run(value);
      return true;
    });
  // The sealer's first pass made the row.
  await expect.poll(() => setLease(new Date(Date.now() + 600_000))).toBe(true);
  // A pass that took the lease just before is over within a moment.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return () => void setLease(new Date(0));
}

type Checkpoint = { id: string; seq: number; platformId: string };

async function newestCheckpoint(page: Page): Promise<Checkpoint> {
  const response = await page.request.get("/v1/audit_events/checkpoints?limit=1");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: Checkpoint[] }).items[0] ?? { id: "", seq: 0, platformId: "" };
}

test.describe("a sealed audit trail", () => {
  test("an event is pending, then sealed into a checkpoint; the Verify page finds the chain intact", async ({
    page,
    server,
    baseURL,
  }, testInfo) => {
    const release = await holdSealer(server);
    let created: { id: string };
    try {
      const response = await page.request.post("/v1/delegated_users", {
        headers: { origin: baseURL! },
        data: { externalId: `sealed-${run()}` },
      });
      expect(response.status()).toBe(201);
      created = (await response.json()) as { id: string };
      await page.goto("/audit-log?action=delegated_user.create");
      const seal = page
        .getByTestId("audit-event-row")
        .filter({ has: page.getByTitle(created.id) })
        .getByTestId("audit-event-seal");
      await expect(seal).toHaveText("Pending");
    } finally {
      release();
    }
    // The page reads the list again while an event is pending: sealed at the sealer's next pass.
    const row = page.getByTestId("audit-event-row").filter({ has: page.getByTitle(created.id) });
    await expect(row.getByTestId("audit-event-seal")).toHaveText(/^Sealed · checkpoint \d+$/, { timeout: 30_000 });
    await expect(page.getByText("npm run audit:verify")).toBeVisible();
    await snapAlsoOnPhone(page, testInfo, "audit-log-sealed", "audit-log-sealed-phone");

    // The NDJSON export, downloaded from the page, verifies offline with the command and the public key.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export NDJSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-events-\d{4}-\d{2}-\d{2}\.ndjson$/);
    const publicKey = await page.request.get("/v1/audit_events/public_key");
    expect(publicKey.status()).toBe(200);
    const keyFile = testInfo.outputPath("audit-public-key.json");
    writeFileSync(keyFile, await publicKey.text());
    const verified = spawnSync(
      "npm",
      ["run", "--silent", "audit:verify", "--", (await download.path())!, "--public-key", keyFile],
      {
        encoding: "utf8",
      },
    );
    expect(verified.stdout + verified.stderr).toMatch(
      /^Intact: \d+ events in \d+ checkpoints, up to checkpoint \d+ sealed at /m,
    );
    expect(verified.status).toBe(0);

    const { seq } = await newestCheckpoint(page);
    await row.getByTestId("audit-event-seal").getByRole("link").click();
    await expect(page).toHaveURL(/\/audit-log\/verify$/);
    const result = page.getByTestId("audit-verify-result");
    await expect(result).toContainText(`Intact up to checkpoint ${seq}, sealed at`);
    await expect(result).toContainText(seq === 1 ? "Its hash and signature hold." : `All ${seq} checkpoints hold`);
    await expect(page.getByRole("row").filter({ hasText: "Signing now" })).toContainText(
      seq === 1 ? "1" : `1 to ${seq}`,
    );
    await snapAlsoOnPhone(page, testInfo, "audit-verify-intact", "audit-verify-intact-phone");
  });

  test("a checkpoint changed in the database (its triggers dropped) is named by the Verify page", async ({
    page,
    server,
    baseURL,
  }, testInfo) => {
    // One more checkpoint, so that one before the changed one holds.
    const before = (await newestCheckpoint(page)).seq;
    const response = await page.request.post("/v1/delegated_users", {
      headers: { origin: baseURL! },
      data: { externalId: `tampered-${run()}` },
    });
    expect(response.status()).toBe(201);
    await expect
      .poll(async () => (await newestCheckpoint(page)).seq, { timeout: 30_000 })
      .toBeGreaterThan(Math.max(before, 1));
    const target = await newestCheckpoint(page);
    expect(target.seq).toBeGreaterThan(1);
    const triggers = withDatabase(server, (db) => {
      const saved = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'AuditCheckpoint'`)
        .all() as { name: string; sql: string }[];
      expect(saved.length).toBeGreaterThan(0);
      for (const { name } of saved) db.exec(`DROP TRIGGER "${name}"`);
      db.prepare(`UPDATE "AuditCheckpoint" SET count = count + 1 WHERE id = ?`).run(target.id);
      return saved;
    });
    try {
      await page.goto("/audit-log/verify");
      const result = page.getByTestId("audit-verify-result");
      await expect(result).toContainText(`Checkpoint ${target.seq} fails`);
      await expect(result).toContainText("Its contents do not match its hash: it was changed after sealing.");
      await expect(result).toContainText(target.id);
      await expect(result).toContainText(`Intact up to checkpoint ${target.seq - 1}, sealed at`);
      await snapAlsoOnPhone(page, testInfo, "audit-verify-tampered", "audit-verify-tampered-phone");
    } finally {
      // The server is shared with the specs after this one: the row and its guards as they were.
      withDatabase(server, (db) => {
        db.prepare(`UPDATE "AuditCheckpoint" SET count = count - 1 WHERE id = ?`).run(target.id);
        for (const { sql } of triggers) db.exec(sql);
      });
    }
    await page.getByRole("button", { name: "Check again" }).click();
    await expect(page.getByTestId("audit-verify-result")).toContainText("Intact up to checkpoint");
  });
});
