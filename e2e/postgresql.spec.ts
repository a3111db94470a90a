import { randomBytes } from "node:crypto";
import { enrolTotp, OWNER, snap, startServer, type Server } from "./fixtures";
import { expect, test } from "./postgresql-fixture";

// The production server on PostgreSQL (DATABASE_URL=postgresql://...): two processes start on one
// fresh database at once (the migrations are applied once), and the API and dashboard work across
// them. Needs a PostgreSQL server (e2e/postgresql-fixture.ts): skipped, saying why, when none answers
// (a failure under REQUIRE_POSTGRESQL=1).

test("two servers on one PostgreSQL database: migrated once, a session and a key work on both, the dashboard shows what either wrote", async ({
  page,
  database,
}, testInfo) => {
  // As several instances must be run: one database and one key for the TOTP secrets (each keeps its other files in its own DATA_DIR).
  const shared = { DATABASE_URL: database, ENCRYPTION_KEY: randomBytes(32).toString("hex") };
  const servers: Server[] = await Promise.all([startServer(shared), startServer(shared)]);
  try {
    const [a, b] = servers as [Server, Server];
    // The advisory lock: one process applied the migrations, the other found them applied.
    expect(
      servers.filter((server) => /Applied migrations: \d+_init/.test(server.output())),
      servers.map((s) => s.output()).join("\n---\n"),
    ).toHaveLength(1);

    // Setup on one; the session cookie (the browser sends it to both: cookies ignore the port) works on the other.
    const setup = await page.request.post(`${a.baseURL}/v1/setup`, { headers: { origin: a.baseURL }, data: OWNER });
    expect(setup.status()).toBe(201);
    expect((await page.request.get(`${b.baseURL}/v1/sessions/current`)).status()).toBe(200);

    // A key issued on one (with a step-up code) authenticates on the other, on the raw hot path.
    const { authenticator } = await enrolTotp(page.request, a.baseURL, OWNER.password);
    const issued = await page.request.post(`${a.baseURL}/v1/api_keys`, {
      headers: { origin: a.baseURL, "service-totp-code": await authenticator.next() },
      data: {
        name: "On PostgreSQL",
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        permissions: ["api_keys:read", "delegated_users:read", "delegated_users:write"],
      },
    });
    expect(issued.status()).toBe(201);
    const { secret, id } = (await issued.json()) as { secret: string; id: string };
    const auth = { authorization: `Bearer ${secret}` };
    const listKeys = async () => {
      const keys = await page.request.get(`${b.baseURL}/v1/api_keys`, { headers: auth });
      expect(keys.status()).toBe(200);
      return ((await keys.json()) as { id: string; expiresAt: string; lastUsedAt: string | null }[])[0]!;
    };
    expect((await listKeys()).id).toBe(id);
    // lastUsedAt is written off the request's path on PostgreSQL, within a few seconds
    // (docs/operations.md, Running on PostgreSQL).
    await expect
      .poll(async () => (await listKeys()).lastUsedAt, { timeout: 30_000 })
      .toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse((await listKeys()).lastUsedAt!) - Date.now())).toBeLessThan(60_000);

    // Writes on one, the contract's 409 for a duplicate on the other.
    const created = await page.request.post(`${a.baseURL}/v1/delegated_users`, {
      headers: auth,
      data: { externalId: "customer-on-pg" },
    });
    expect(created.status()).toBe(201);
    const duplicate = await page.request.post(`${b.baseURL}/v1/delegated_users`, {
      headers: auth,
      data: { externalId: "customer-on-pg" },
    });
    expect(duplicate.status()).toBe(409);
    expect((await duplicate.json()).error_code).toBe("err_conflict");

    // The dashboard served by the other process shows both.
    await page.goto(`${b.baseURL}/delegated-users`);
    await expect(page.getByText("customer-on-pg")).toBeVisible();
    await page.goto(`${b.baseURL}/api-keys`);
    await expect(page.getByText("On PostgreSQL").first()).toBeVisible();
    await snap(page, testInfo, "postgresql-api-keys");
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
});
