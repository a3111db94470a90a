import { test, expect } from "@playwright/test";
import { OWNER, startServer, type Server } from "./fixtures";

// Idempotency-Key against the production server: parallel duplicates run once, and the kept response
// outlives a restart (it is in the database, not in the process).

async function platformKey(server: Server): Promise<string> {
  const setup = await fetch(`${server.baseURL}/v1/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(setup.status).toBe(201);
  const cookie = setup.headers.get("set-cookie")!.split(";")[0]!;
  const sandbox = await fetch(`${server.baseURL}/v1/sandbox/platforms`, {
    method: "POST",
    headers: { cookie, origin: server.baseURL, "content-type": "application/json" },
    body: JSON.stringify({ accountName: "Idempotent Tenant" }),
  });
  expect(sandbox.status).toBe(201);
  return ((await sandbox.json()) as { apiKey: { secret: string } }).apiKey.secret;
}

const createUser = (server: Server, apiKey: string, externalId: string, idempotencyKey: string) =>
  fetch(`${server.baseURL}/v1/delegated_users`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify({ externalId }),
  });

async function usersOf(server: Server, apiKey: string): Promise<{ id: string; externalId: string }[]> {
  const response = await fetch(`${server.baseURL}/v1/delegated_users?limit=100`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: string; externalId: string }[] }).items;
}

test.describe("Idempotency-Key on the real server", () => {
  let server: Server;
  test.afterEach(async () => server?.stop());

  test("twenty parallel POSTs with one key: one runs, the rest replay it or answer 409; one user exists", async () => {
    server = await startServer();
    const apiKey = await platformKey(server);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createUser(server, apiKey, "parallel-customer", "parallel-1")),
    );
    const bodies = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        replayed: response.headers.get("idempotent-replayed"),
        body: await response.json(),
      })),
    );
    const ran = bodies.filter((entry) => entry.status === 201 && entry.replayed === null);
    expect(ran, JSON.stringify(bodies.map((entry) => [entry.status, entry.replayed]))).toHaveLength(1);
    for (const entry of bodies) {
      expect([201, 409]).toContain(entry.status);
      if (entry.status === 201) expect(entry.body).toEqual(ran[0]!.body);
      else expect(entry.body).toMatchObject({ error_code: "err_conflict", http_code: 409 });
    }
    expect((await usersOf(server, apiKey)).filter((user) => user.externalId === "parallel-customer")).toHaveLength(1);

    // A different body under the same key: 422, nothing created.
    const mismatch = await createUser(server, apiKey, "someone-else", "parallel-1");
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { error_code: string }).error_code).toBe("err_idempotency_mismatch");
    expect((await usersOf(server, apiKey)).some((user) => user.externalId === "someone-else")).toBe(false);
  });

  test("the kept response survives a restart: the repeat after it is replayed, not run again", async () => {
    server = await startServer();
    const apiKey = await platformKey(server);
    const first = await createUser(server, apiKey, "before-restart", "restart-1");
    expect(first.status).toBe(201);
    const created = await first.json();
    const { dataDir } = server;
    await server.stop();
    server = await startServer({}, dataDir);
    const again = await createUser(server, apiKey, "before-restart", "restart-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(created);
    expect(await usersOf(server, apiKey)).toHaveLength(1);
  });
});
