// PostgreSQL's migrator (runs in the PostgreSQL half of the suite: TEST_DATABASE=postgresql). Each
// test migrates a database of its own on the test server.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate";

const base = process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const migrationNames = readdirSync(path.join(process.cwd(), "prisma", "migrations-postgresql"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const created: string[] = [];
async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
async function freshDatabase(): Promise<string> {
  const name = `pcs_migrate_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
afterAll(() =>
  admin(async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }),
);

async function query<Row extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe("migratePostgres", () => {
  it("applies every PostgreSQL migration to a fresh database and records each with its checksum", async () => {
    const url = await freshDatabase();
    expect(await migratePostgres(url)).toEqual(migrationNames);
    const tables = (
      await query<{ table_name: string }>(
        url,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      )
    ).map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "_migrations",
        "Account",
        "Employee",
        "Session",
        "ApiKey",
        "AuditEvent",
        "WebhookDelivery",
      ]),
    );
    expect(await query(url, `SELECT name, checksum FROM "_migrations" ORDER BY name`)).toEqual(
      migrationNames.map((name) => ({ name, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) })),
    );
  });

  it("applies nothing on a second run and keeps the data", async () => {
    const url = await freshDatabase();
    await migratePostgres(url);
    await query(url, `INSERT INTO "Account" (id, "platformId", name) VALUES ('acct_keep', 'acct_keep', 'Kept')`);
    expect(await migratePostgres(url)).toEqual([]);
    expect(await query(url, `SELECT id, name FROM "Account"`)).toEqual([{ id: "acct_keep", name: "Kept" }]);
  });

  it("refuses to start when an applied migration's checksum changed", async () => {
    const url = await freshDatabase();
    await migratePostgres(url);
    await query(url, `UPDATE "_migrations" SET checksum = 'edited' WHERE name = $1`, [migrationNames[0]]);
    await expect(migratePostgres(url)).rejects.toThrow(
      new RegExp(`Migration ${migrationNames[0]} was changed after it was applied`),
    );
  });

  it("refuses a database a newer version migrated (a downgrade), naming the migration", async () => {
    const url = await freshDatabase();
    await migratePostgres(url);
    await query(url, `INSERT INTO "_migrations" (name, checksum, "appliedAt") VALUES ($1, 'x', 'now')`, [
      "29991231000000_from_a_newer_version",
    ]);
    await expect(migratePostgres(url)).rejects.toThrow(
      "The PostgreSQL database has applied migration 29991231000000_from_a_newer_version, which this version does not have",
    );
  });

  it("two instances starting at once: the advisory lock lets one apply the migrations and the other find them applied", async () => {
    const url = await freshDatabase();
    const results = await Promise.all([migratePostgres(url), migratePostgres(url), migratePostgres(url)]);
    expect(results.map((names) => names.length).sort()).toEqual([0, 0, migrationNames.length]);
    expect(await query(url, `SELECT count(*)::int AS n FROM "_migrations"`)).toEqual([{ n: migrationNames.length }]);
  });

  it("the audit table refuses updates and deletes, as SQLite's triggers do", async () => {
    const url = await freshDatabase();
    await migratePostgres(url);
    await query(
      url,
      `INSERT INTO "AuditEvent" (id, "actorType", action, outcome, status, "requestId") VALUES ('aud_1', 'anonymous', 'probe', 'success', 200, 'req_1')`,
    );
    await expect(query(url, `UPDATE "AuditEvent" SET action = 'edited'`)).rejects.toThrow(/append-only/);
    await expect(query(url, `DELETE FROM "AuditEvent"`)).rejects.toThrow(/append-only/);
    expect(await query(url, `SELECT count(*)::int AS n FROM "AuditEvent"`)).toEqual([{ n: 1 }]);
  });

  it("the enums-and-JSON migration converts each column in place, keeping its values", async () => {
    // A project copy holding the migrations before it, then the real ones.
    const project = mkdtempSync(path.join(tmpdir(), "before-enums-"));
    const before = migrationNames.filter((name) => name < "20261124113000");
    for (const name of before) {
      cpSync(
        path.join(process.cwd(), "prisma", "migrations-postgresql", name),
        path.join(project, "prisma", "migrations-postgresql", name),
        { recursive: true },
      );
    }
    const url = await freshDatabase();
    const cwd = process.cwd();
    process.chdir(project);
    try {
      await migratePostgres(url);
    } finally {
      process.chdir(cwd);
      rmSync(project, { recursive: true, force: true });
    }
    await query(
      url,
      `INSERT INTO "Account" (id, "platformId", name, "featureFlags") VALUES ('acct_p', 'acct_p', 'P', '{"named":"prefer"}')`,
    );
    await query(
      url,
      `INSERT INTO "Employee" (id, "accountId", name, email, status, role) VALUES ('emp_1', 'acct_p', 'E', 'e@example.com', 'active', 'compliance')`,
    );
    await query(
      url,
      `INSERT INTO "ApiKey" (id, "accountId", prefix, "secretHash", "expiresAt", "cidrAllowlist", permissions, "createdByType", "createdById") VALUES ('key_1', 'acct_p', 'svc_x', 'h', '2030-01-01', '["10.0.0.0/8"]', '["accounts:read"]', 'employee', 'emp_1')`,
    );
    await query(
      url,
      `INSERT INTO "AuditEvent" (id, "actorType", action, outcome, status, "requestId", details) VALUES ('aud_1', 'employee', 'probe', 'denied', 403, 'req_1', '{"email":"e@example.com"}')`,
    );
    await query(
      url,
      `INSERT INTO "WebhookEndpoint" (id, "accountId", url, "subscribedEvents", "publicKey", "privateKey") VALUES ('we_1', 'acct_p', 'https://example.com', '["transfer.created"]', 'pk', 'sk')`,
    );
    await query(
      url,
      `INSERT INTO "WebhookDelivery" (id, "accountId", "webhookEndpointId", "eventType", "eventData", status) VALUES ('evt_1', 'acct_p', 'we_1', 'transfer.created', '{"id":"tr_1"}', 'delivered')`,
    );
    expect(await migratePostgres(url)).toEqual(migrationNames.filter((name) => !before.includes(name)));
    expect(await query(url, `SELECT "featureFlags", pg_typeof("featureFlags")::text AS type FROM "Account"`)).toEqual([
      { featureFlags: { named: "prefer" }, type: "jsonb" },
    ]);
    expect(await query(url, `SELECT status::text, role::text, pg_typeof(role)::text AS type FROM "Employee"`)).toEqual([
      { status: "active", role: "compliance", type: '"Role"' },
    ]);
    expect(await query(url, `SELECT "cidrAllowlist", permissions, "createdByType"::text FROM "ApiKey"`)).toEqual([
      { cidrAllowlist: ["10.0.0.0/8"], permissions: ["accounts:read"], createdByType: "employee" },
    ]);
    expect(await query(url, `SELECT "actorType"::text, outcome::text, details FROM "AuditEvent"`)).toEqual([
      { actorType: "employee", outcome: "denied", details: { email: "e@example.com" } },
    ]);
    expect(await query(url, `SELECT "subscribedEvents" FROM "WebhookEndpoint"`)).toEqual([
      { subscribedEvents: ["transfer.created"] },
    ]);
    expect(await query(url, `SELECT "eventData", status::text FROM "WebhookDelivery"`)).toEqual([
      { eventData: { id: "tr_1" }, status: "delivered" },
    ]);
    // The defaults were converted too.
    await query(
      url,
      `INSERT INTO "Employee" (id, "accountId", name, email, status) VALUES ('emp_2', 'acct_p', 'F', 'f@example.com', 'invited')`,
    );
    expect(await query(url, `SELECT role::text FROM "Employee" WHERE id = 'emp_2'`)).toEqual([{ role: "viewer" }]);
    await expect(query(url, `UPDATE "AuditEvent" SET action = 'edited'`)).rejects.toThrow(/append-only/);
  });
});
