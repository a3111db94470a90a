// PostgreSQL's migrator (runs in the PostgreSQL half of the suite: TEST_DATABASE=postgresql). Each
// test migrates a database of its own on the test server.
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
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
afterAll(() => admin(async (client) => {
  for (const name of created) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}));

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
    const tables = (await query<{ table_name: string }>(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).map((row) => row.table_name);
    expect(tables).toEqual(expect.arrayContaining(["_migrations", "Account", "Employee", "Session", "ApiKey", "AuditEvent", "WebhookDelivery"]));
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
    await expect(migratePostgres(url)).rejects.toThrow(new RegExp(`Migration ${migrationNames[0]} was changed after it was applied`));
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
    await query(url, `INSERT INTO "AuditEvent" (id, "actorType", action, outcome, status, "requestId") VALUES ('aud_1', 'anonymous', 'probe', 'success', 200, 'req_1')`);
    await expect(query(url, `UPDATE "AuditEvent" SET action = 'edited'`)).rejects.toThrow(/append-only/);
    await expect(query(url, `DELETE FROM "AuditEvent"`)).rejects.toThrow(/append-only/);
    expect(await query(url, `SELECT count(*)::int AS n FROM "AuditEvent"`)).toEqual([{ n: 1 }]);
  });
});
