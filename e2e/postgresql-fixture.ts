import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, test as base } from "@playwright/test";
import { httpRequest, OWNER, startServer, type Server } from "./fixtures";

// A fresh PostgreSQL database per test (or per serial group) for the specs that run the server on
// PostgreSQL. The server is the one POSTGRESQL_TEST_URL names (default postgres@127.0.0.1:5432);
// without one the tests are skipped, saying why, except under REQUIRE_POSTGRESQL=1 (.ci/run),
// where a missing server is a failure.
const serverUrl = process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

/** Runs `work` on a connection to `url` (by default the server's maintenance database), then closes it. */
export async function onPostgresql<T>(work: (client: pg.Client) => Promise<T>, url = serverUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Why the PostgreSQL tests cannot run here (no server answers), or null when they can; throws
 * instead under REQUIRE_POSTGRESQL=1. Pass the answer to test.skip(missing !== null, missing ?? "").
 */
export async function missingPostgresql(): Promise<string | null> {
  const reachable = await onPostgresql(() => Promise.resolve(true)).catch((error: Error) => error.message);
  if (reachable === true) return null;
  if (process.env.REQUIRE_POSTGRESQL === "1")
    throw new Error(`REQUIRE_POSTGRESQL=1 but no PostgreSQL server: ${reachable}`);
  return `no PostgreSQL server at ${serverUrl.replace(/\/\/[^@/]*@/, "//")}: ${reachable}`;
}

/** A new empty database on the server: its URL, and drop() (which ends any connection still open to it). */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pcs_e2e_${randomBytes(6).toString("hex")}`;
  await onPostgresql((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      onPostgresql((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** `database`: the URL of a fresh database for this test, dropped after it. */
export const test = base.extend<{ database: string }>({
  database: async ({}, use) => {
    const missing = await missingPostgresql();
    test.skip(missing !== null, missing ?? "");
    const database = await createDatabase();
    await use(database.url);
    await database.drop();
  },
});

export { expect };

/**
 * Two server processes ("a" and "b", started one after the other: the first migrates) on one fresh
 * PostgreSQL database, for a serial group: registers its beforeAll (skipping, saying why, without a
 * server), an afterEach that keeps both servers' logs of a failed test, and an afterAll that stops them
 * and drops the database. `env` is what both share besides the database and the encryption key.
 */
export function twoServersOnOneDatabase(label: string, env: Record<string, string>) {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const servers: Server[] = [];
  test.beforeAll(async () => {
    const missing = await missingPostgresql();
    test.skip(missing !== null, missing ?? "");
    database = await createDatabase();
    const shared = { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString("hex"), ...env };
    for (const name of ["a", "b"]) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `pmc-e2e-${label}-${name}-`));
      servers.push(await startServer({ ...shared, DATA_DIR: dataDir }, dataDir));
    }
  });
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus)
      for (const [index, server] of servers.entries())
        writeFileSync(testInfo.outputPath(`server-${index}.log`), server.output());
  });
  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });
  return {
    servers: () => servers as [Server, Server],
    /** Rows of `sql` on the servers' database. */
    query: <T>(sql: string, values: unknown[] = []) =>
      onPostgresql(async (client) => (await client.query(sql, values)).rows as T[], database!.url),
  };
}

/**
 * The tenant the two-server specs work in: the service set up on server a (its owner's session comes
 * from there), then a sandbox platform created on b with that session, so b already trusts what a
 * wrote. Answers the sandbox platform's key and account id, and the id of the platform set up on a.
 */
export async function tenantOnTwoServers([a, b]: readonly [Server, Server], accountName: string) {
  const setup = await httpRequest(`${a.baseURL}/v1/setup`, { method: "POST", body: OWNER });
  expect(setup.status, setup.body).toBe(201);
  const cookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
  const created = await httpRequest(`${b.baseURL}/v1/sandbox/platforms`, {
    method: "POST",
    body: { accountName },
    headers: { cookie, origin: b.baseURL },
  });
  expect(created.status, created.body).toBe(201);
  return {
    key: (created.json().apiKey as { secret: string }).secret,
    accountId: (created.json().account as { id: string }).id,
    setupPlatformId: (setup.json().account as { id: string }).id,
  };
}
