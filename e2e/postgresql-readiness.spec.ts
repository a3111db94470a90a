import net from "node:net";
import { httpRequest, startServer } from "./fixtures";
import { expect, test } from "./postgresql-fixture";

// Readiness follows the database: with PostgreSQL refusing connections GET /readyz answers 503 saying
// why, while liveness stays 200 (the process is fine; restarting it would not help), and once PostgreSQL
// answers again the instance is ready again. A TCP relay between the server and PostgreSQL stands in for
// the database going away: closed, it refuses new connections and cuts the open ones.

/** A relay on a port of its own to PostgreSQL's; `down()` refuses and cuts, `up()` relays again on the same port. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const up = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("error", () => {});
        socket.on("close", () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server!.address() as net.AddressInfo).port;
  };
  const down = async () => {
    await new Promise<void>((resolve) => {
      server!.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  };
  await up();
  return { port: () => port, up, down };
}

test("/readyz goes 503 while PostgreSQL refuses connections, /healthz stays 200, and it is ready again after", async ({
  database,
}) => {
  const target = new URL(database);
  const relay = await relayTo(target);
  const viaRelay = new URL(database);
  viaRelay.host = `127.0.0.1:${relay.port()}`;
  const server = await startServer({ DATABASE_URL: viaRelay.toString() });
  try {
    const ready = await httpRequest(`${server.baseURL}/readyz`);
    expect(ready.json()).toEqual({ status: "ready", checks: { database: "ok" } });

    await relay.down();
    await expect
      .poll(async () => (await httpRequest(`${server.baseURL}/readyz`)).status, { timeout: 30_000 })
      .toBe(503);
    const refused = (await httpRequest(`${server.baseURL}/readyz`)).json();
    expect(refused).toMatchObject({ status: "unavailable", checks: { database: expect.any(String) } });
    expect((refused.checks as { database: string }).database).not.toBe("ok");
    expect((await httpRequest(`${server.baseURL}/healthz`)).status).toBe(200);

    await relay.up();
    await expect
      .poll(async () => (await httpRequest(`${server.baseURL}/readyz`)).status, { timeout: 30_000 })
      .toBe(200);
  } finally {
    await server.stop();
    await relay.down().catch(() => {});
  }
});

test("a database that refuses the start (no such database) stops the server within 10 s, in one line naming DATABASE_URL without its password", async ({
  database,
}) => {
  const missing = new URL(database);
  missing.pathname = `${missing.pathname}_missing`;
  missing.password = "secret-pw-never-logged";
  const started = Date.now();
  const start = startServer({ DATABASE_URL: missing.toString(), LOG_FORMAT: "json" });
  const failure = await start.then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failure).toMatch(/^server exited with 1/);
  expect(Date.now() - started).toBeLessThan(10_000);
  const fatal = failure!
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((line) => line.level === "fatal");
  expect(fatal).toHaveLength(1);
  expect(fatal[0]!.msg).toContain("DATABASE_URL");
  expect(fatal[0]!.msg).toContain("_missing");
  expect(failure).not.toContain("secret-pw-never-logged");
});
