import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { migrateDatabase } from "@/lib/db/migrate";

const root = process.cwd();
const migrationNames = readdirSync(path.join(root, "prisma", "migrations"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const work = mkdtempSync(path.join(tmpdir(), "migrate-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let fileCount = 0;
const freshFile = () => path.join(work, `db${++fileCount}`, "app.db");

function withDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const tableNames = (file: string) =>
  withDb(file, (db) =>
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map(
      (row) => row.name,
    ),
  );

/** A fresh file migrated as a release holding only the migrations named before `stamp` would (a project copy with those). */
function migratedBefore(stamp: string) {
  const project = path.join(work, `before-${stamp}-project`);
  const applied = migrationNames.filter((name) => name < stamp);
  for (const name of applied) {
    cpSync(path.join(root, "prisma", "migrations", name), path.join(project, "prisma", "migrations", name), {
      recursive: true,
    });
  }
  const file = freshFile();
  const cwd = process.cwd();
  process.chdir(project);
  try {
    migrateDatabase(file);
  } finally {
    process.chdir(cwd);
  }
  return { file, applied };
}

describe("migrateDatabase", () => {
  it("applies every migration to a fresh file, creating its directory and the tables", () => {
    expect(migrationNames[0]).toMatch(/_init$/);
    const file = freshFile();
    expect(migrateDatabase(file)).toEqual(migrationNames);
    expect(tableNames(file)).toEqual(
      expect.arrayContaining(["_migrations", "Account", "Employee", "Session", "RecoveryCode", "ApiKey"]),
    );
    const recorded = withDb(file, (db) => db.prepare(`SELECT name, checksum FROM "_migrations" ORDER BY name`).all());
    expect(recorded).toEqual(
      migrationNames.map((name) => ({ name, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) })),
    );
  });

  it("applies nothing on a second run and keeps the data", () => {
    const file = freshFile();
    migrateDatabase(file);
    withDb(file, (db) =>
      db.prepare(`INSERT INTO "Account" (id, platformId, name) VALUES (?, ?, ?)`).run("acct_keep", "acct_keep", "Kept"),
    );
    expect(migrateDatabase(file)).toEqual([]);
    const rows = withDb(file, (db) => db.prepare(`SELECT id, name FROM "Account"`).all());
    expect(rows).toEqual([{ id: "acct_keep", name: "Kept" }]);
  });

  it("leaves the file in WAL journal mode", () => {
    const file = freshFile();
    migrateDatabase(file);
    expect(withDb(file, (db) => db.pragma("journal_mode", { simple: true }))).toBe("wal");
  });

  it("refuses to start when an applied migration's checksum changed", () => {
    const file = freshFile();
    migrateDatabase(file);
    withDb(file, (db) =>
      db.prepare(`UPDATE "_migrations" SET checksum = 'edited' WHERE name = ?`).run(migrationNames[0]),
    );
    expect(() => migrateDatabase(file)).toThrow(
      new RegExp(`Migration ${migrationNames[0]} was changed after it was applied`),
    );
  });

  it("refuses a database a newer version migrated (a downgrade), naming the migration, and changes nothing", () => {
    const file = freshFile();
    migrateDatabase(file);
    const future = "29991231000000_from_a_newer_version";
    withDb(file, (db) =>
      db.prepare(`INSERT INTO "_migrations" (name, checksum, appliedAt) VALUES (?, 'x', 'now')`).run(future),
    );
    expect(() => migrateDatabase(file)).toThrow(
      `${file} has applied migration ${future}, which this version does not have: it was upgraded by a newer version.`,
    );
    expect(withDb(file, (db) => db.prepare(`SELECT count(*) AS n FROM "_migrations"`).pluck().get())).toBe(
      migrationNames.length + 1,
    );
  });

  it("npm run migrate applies the migrations and exits; run again, it applies nothing; a downgrade exits 1 naming it", () => {
    const file = freshFile();
    const run = () =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: `file:${file}` },
        encoding: "utf8",
      });
    const first = run();
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(`file:${file}: applied ${migrationNames.length} migrations: ${migrationNames[0]}, `);
    expect(first.status).toBe(0);
    const second = run();
    expect(second.stdout.trim()).toBe(`file:${file}: up to date, no migration to apply.`);
    expect(second.status).toBe(0);
    withDb(file, (db) =>
      db
        .prepare(`INSERT INTO "_migrations" (name, checksum, appliedAt) VALUES ('29991231000000_newer', 'x', 'now')`)
        .run(),
    );
    const refused = run();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^npm run migrate: .* has applied migration 29991231000000_newer, which this version does not have/,
    );
  });

  it("rolls back a failing migration and records only those that succeeded", () => {
    // A project copy whose second migration fails half-way (migrationsDir follows the working directory).
    const project = path.join(work, "failing-project");
    cpSync(path.join(root, "prisma", "migrations"), path.join(project, "prisma", "migrations"), { recursive: true });
    mkdirSync(path.join(project, "prisma", "migrations", "99990101000000_broken"));
    writeFileSync(
      path.join(project, "prisma", "migrations", "99990101000000_broken", "migration.sql"),
      `CREATE TABLE "Half" ("id" TEXT NOT NULL PRIMARY KEY);\nINSERT INTO "NoSuchTable" VALUES (1);\n`,
    );
    const file = freshFile();
    const cwd = process.cwd();
    process.chdir(project);
    try {
      expect(() => migrateDatabase(file)).toThrow(/NoSuchTable/);
    } finally {
      process.chdir(cwd);
    }
    expect(tableNames(file)).not.toContain("Half");
    const recorded = withDb(file, (db) => db.prepare(`SELECT name FROM "_migrations" ORDER BY name`).all());
    expect(recorded).toEqual(migrationNames.map((name) => ({ name })));
  });

  it("release 2 keeps release 1's data: first employee owner, the rest admins, keys with default permissions, sessions kept", () => {
    const { file, applied: release1 } = migratedBefore("20261123");
    withDb(file, (db) => {
      db.prepare(`INSERT INTO "Account" (id, platformId, name) VALUES ('acct_p', 'acct_p', 'P')`).run();
      const employee = db.prepare(
        `INSERT INTO "Employee" (id, accountId, name, email, status, createdAt) VALUES (?, 'acct_p', ?, ?, 'active', ?)`,
      );
      employee.run("emp_second", "Second", "second@example.com", "2026-11-02T00:00:00.000Z");
      employee.run("emp_first", "First", "first@example.com", "2026-11-01T00:00:00.000Z");
      db.prepare(
        `INSERT INTO "Session" (id, employeeId, tokenHash, expiresAt) VALUES ('ses_1', 'emp_first', 'hash', '2030-01-01T00:00:00.000Z')`,
      ).run();
      const key = db.prepare(
        `INSERT INTO "ApiKey" (id, accountId, prefix, secretHash, expiresAt, createdById) VALUES (?, 'acct_p', 'svc_x', ?, '2030-01-01T00:00:00.000Z', ?)`,
      );
      key.run("key_by_employee", "h1", "emp_first");
      key.run("key_by_key", "h2", null);
    });
    expect(migrateDatabase(file)).toEqual(migrationNames.filter((name) => !release1.includes(name)));
    withDb(file, (db) => {
      expect(db.prepare(`SELECT id, role FROM "Employee" ORDER BY id`).all()).toEqual([
        { id: "emp_first", role: "owner" },
        { id: "emp_second", role: "admin" },
      ]);
      expect(db.prepare(`SELECT id FROM "Session"`).all()).toEqual([{ id: "ses_1" }]);
      const keys = db.prepare(`SELECT id, permissions, createdByType FROM "ApiKey" ORDER BY id`).all() as {
        id: string;
        permissions: string;
        createdByType: string | null;
      }[];
      expect(keys.map(({ id, createdByType }) => ({ id, createdByType }))).toEqual([
        { id: "key_by_employee", createdByType: "employee" },
        { id: "key_by_key", createdByType: null },
      ]);
      for (const key of keys) expect(JSON.parse(key.permissions)).toEqual([...DEFAULT_KEY_PERMISSIONS]);
      expect(db.prepare(`SELECT requireTwoFactor, fourEyesApproval FROM "Account"`).get()).toEqual({
        requireTwoFactor: 0,
        fourEyesApproval: 0,
      });
    });
  });
});

describe("the enums-and-JSON migration", () => {
  it("keeps every enumerated and JSON value, and the audit trail stays append-only", () => {
    const { file, applied: before } = migratedBefore("20261124113000");
    withDb(file, (db) => {
      db.prepare(
        `INSERT INTO "Account" (id, platformId, name, featureFlags) VALUES ('acct_p', 'acct_p', 'P', '{"named":"prefer"}')`,
      ).run();
      db.prepare(
        `INSERT INTO "Employee" (id, accountId, name, email, status, role) VALUES ('emp_1', 'acct_p', 'E', 'e@example.com', 'active', 'compliance')`,
      ).run();
      db.prepare(
        `INSERT INTO "ApiKey" (id, accountId, prefix, secretHash, expiresAt, cidrAllowlist, permissions, createdByType, createdById) VALUES ('key_1', 'acct_p', 'svc_x', 'h', '2030-01-01T00:00:00.000+00:00', '["10.0.0.0/8"]', '["accounts:read"]', 'employee', 'emp_1')`,
      ).run();
      db.prepare(
        `INSERT INTO "KycSubmission" (id, accountId, type, status) VALUES ('sub_1', 'acct_p', 'business', 'submitted')`,
      ).run();
      db.prepare(
        `INSERT INTO "Beneficiary" (id, accountId, submissionId, type, country, roles, shareSize) VALUES ('ben_1', 'acct_p', 'sub_1', 'individual', 'DE', '["ubo"]', '100')`,
      ).run();
      db.prepare(
        `INSERT INTO "ApplicantProfile" (accountId, address) VALUES ('acct_p', '{"line1":"Main St 1","line2":null,"city":"Berlin","postalCode":"10115","country":"DE"}')`,
      ).run();
      db.prepare(
        `INSERT INTO "AuditEvent" (id, actorType, action, outcome, status, requestId, details) VALUES ('aud_1', 'employee', 'probe', 'denied', 403, 'req_1', '{"email":"e@example.com"}')`,
      ).run();
      db.prepare(
        `INSERT INTO "WebhookEndpoint" (id, accountId, url, subscribedEvents, publicKey, privateKey) VALUES ('we_1', 'acct_p', 'https://example.com', '["transfer.created"]', 'pk', 'sk')`,
      ).run();
      db.prepare(
        `INSERT INTO "WebhookDelivery" (id, accountId, webhookEndpointId, eventType, eventData, status) VALUES ('evt_1', 'acct_p', 'we_1', 'transfer.created', '{"id":"tr_1"}', 'delivered')`,
      ).run();
    });
    expect(migrateDatabase(file)).toEqual(migrationNames.filter((name) => !before.includes(name)));
    withDb(file, (db) => {
      const one = (sql: string) => db.prepare(sql).get();
      expect(one(`SELECT featureFlags FROM "Account"`)).toEqual({ featureFlags: '{"named":"prefer"}' });
      expect(one(`SELECT status, role FROM "Employee"`)).toEqual({ status: "active", role: "compliance" });
      expect(one(`SELECT cidrAllowlist, permissions, createdByType FROM "ApiKey"`)).toEqual({
        cidrAllowlist: '["10.0.0.0/8"]',
        permissions: '["accounts:read"]',
        createdByType: "employee",
      });
      expect(one(`SELECT type, status FROM "KycSubmission"`)).toEqual({ type: "business", status: "submitted" });
      expect(one(`SELECT type, roles FROM "Beneficiary"`)).toEqual({ type: "individual", roles: '["ubo"]' });
      expect(one(`SELECT json_extract(address, '$.city') AS city FROM "ApplicantProfile"`)).toEqual({ city: "Berlin" });
      expect(one(`SELECT actorType, outcome, details FROM "AuditEvent"`)).toEqual({
        actorType: "employee",
        outcome: "denied",
        details: '{"email":"e@example.com"}',
      });
      expect(one(`SELECT subscribedEvents FROM "WebhookEndpoint"`)).toEqual({
        subscribedEvents: '["transfer.created"]',
      });
      expect(one(`SELECT eventData, status FROM "WebhookDelivery"`)).toEqual({
        eventData: '{"id":"tr_1"}',
        status: "delivered",
      });
      // The table was rebuilt: its triggers were made again.
      expect(() => db.prepare(`UPDATE "AuditEvent" SET action = 'edited'`).run()).toThrow(/append-only/);
      expect(() => db.prepare(`DELETE FROM "AuditEvent"`).run()).toThrow(/append-only/);
      // A new account gets the default flags.
      db.prepare(`INSERT INTO "Account" (id, platformId, name) VALUES ('acct_q', 'acct_q', 'Q')`).run();
      expect(one(`SELECT featureFlags FROM "Account" WHERE id = 'acct_q'`)).toEqual({ featureFlags: "{}" });
    });
  });
});

describe("migrateDatabase in several processes at once", () => {
  /** Runs migrateDatabase(file) in `count` separate processes released at the same moment; each answers what it applied, or its error. */
  async function migrateInProcesses(file: string, count: number) {
    const script = path.join(work, "migrate-child.ts");
    writeFileSync(
      script,
      `import { migrateDatabase } from ${JSON.stringify(path.join(root, "lib", "db", "migrate.ts"))};
const [file, at] = process.argv.slice(2);
setTimeout(() => {
  try {
    console.log(JSON.stringify({ applied: migrateDatabase(file!) }));
  } catch (error) {
    console.log(JSON.stringify({ error: String(error) }));
  }
}, Number(at) - Date.now());
`,
    );
    // Loading TypeScript takes a while: all are released together once every one has surely loaded.
    const at = Date.now() + 4_000;
    const runs = Array.from(
      { length: count },
      () =>
        new Promise<{ applied?: string[]; error?: string }>((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", script, file, String(at)], {
            cwd: root,
            stdio: ["ignore", "pipe", "inherit"],
          });
          let output = "";
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.on("error", reject);
          child.on("exit", () => {
            try {
              resolve(JSON.parse(output.trim().split("\n").at(-1)!));
            } catch {
              reject(new Error(`no answer from a migrating process: ${output}`));
            }
          });
        }),
    );
    return Promise.all(runs);
  }

  it(
    "six processes migrating one fresh file: every migration applied once, by one of them, and none fails",
    { timeout: 60_000 },
    async () => {
      const file = freshFile();
      const results = await migrateInProcesses(file, 6);
      expect(results.filter((result) => result.error)).toEqual([]);
      const applied = results.flatMap((result) => result.applied!);
      expect([...applied].sort()).toEqual(migrationNames);
      const recorded = withDb(file, (db) => db.prepare(`SELECT name FROM "_migrations" ORDER BY name`).pluck().all());
      expect(recorded).toEqual(migrationNames);
      expect(withDb(file, (db) => db.pragma("journal_mode", { simple: true }))).toBe("wal");
      expect(withDb(file, (db) => db.pragma("integrity_check", { simple: true }))).toBe("ok");
    },
  );
});

describe("scripts/check-migrations.mjs", () => {
  const runCheck = (cwd: string) =>
    spawnSync(process.execPath, ["--experimental-wasm-modules", "scripts/check-migrations.mjs"], {
      cwd,
      encoding: "utf8",
      timeout: 110_000,
    });

  it("finds schema.prisma and the migrations of both databases in agreement", { timeout: 120_000 }, () => {
    const result = runCheck(root);
    expect(result.stdout).toContain("the migrations agree (SQLite)");
    // PostgreSQL's half needs a server (npm test and .ci/run provide one); without it the check says it skipped.
    expect(result.stdout).toMatch(
      /the migrations agree \(PostgreSQL\)|PostgreSQL migrations not checked: no PostgreSQL server/,
    );
    expect(result.status).toBe(0);
  });

  it("fails with the missing SQL when the schema has a change no migration carries", { timeout: 120_000 }, () => {
    const copy = path.join(work, "drift-project");
    cpSync(path.join(root, "prisma"), path.join(copy, "prisma"), { recursive: true });
    cpSync(path.join(root, "scripts"), path.join(copy, "scripts"), { recursive: true });
    symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"), "dir");
    const schemaFile = path.join(copy, "prisma", "schema.prisma");
    const schema = readFileSync(schemaFile, "utf8");
    expect(schema).toContain("model Account {\n");
    writeFileSync(schemaFile, schema.replace("model Account {\n", "model Account {\n  driftProbe String?\n"));

    const result = runCheck(copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("schema.prisma has changes no migration carries");
    expect(result.stderr).toMatch(/ALTER TABLE|CREATE/);
    expect(result.stderr).toContain("driftProbe");
    if (!result.stdout.includes("PostgreSQL migrations not checked")) {
      expect(result.stderr).toContain("schema.prisma has changes no PostgreSQL migration carries");
      expect(result.stderr).toMatch(/ALTER TABLE "Account" ADD COLUMN\s+"driftProbe" TEXT/);
    }
  });
});
