import Database from "better-sqlite3";
import { createPublicKey, verify } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { OWNER, startReceiver, startServer, type Received, type Server } from "./fixtures";

// Webhook delivery against the production server (server.mjs): an event committed before a crash
// still arrives after the restart; two processes on one database send each attempt once; SIGTERM
// waits for the attempt in flight. The receiver is a plain HTTP server the test runs (startReceiver).

/** First-run setup, then a sandbox platform whose API key (webhooks:write among its defaults) the test uses. */
async function platformKey(server: Server): Promise<string> {
  const setup = await fetch(`${server.baseURL}/v1/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(setup.status).toBe(201);
  const cookie = setup.headers.get("set-cookie")!.split(";")[0]!;
  const platform = await fetch(`${server.baseURL}/v1/sandbox/platforms`, {
    method: "POST",
    headers: { cookie, origin: server.baseURL, "content-type": "application/json" },
    body: JSON.stringify({ accountName: `Tenant ${Date.now()}` }),
  });
  expect(platform.status).toBe(201);
  return ((await platform.json()) as { apiKey: { secret: string } }).apiKey.secret;
}

async function call<T>(server: Server, key: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.baseURL}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
}

type Endpoint = { id: string; publicKey: string };
type Delivery = { id: string; status: string };

const createEndpoint = (server: Server, key: string, url: string) =>
  call<Endpoint>(server, key, "/v1/webhook_endpoints", { url, events: ["webhook.test"], description: "e2e receiver" });

const sendTestEvent = (server: Server, key: string, endpoint: Endpoint) =>
  call<Delivery>(server, key, `/v1/webhook_endpoints/${endpoint.id}/test`, {});

/** The delivery's row, read straight from the server's database file. */
function deliveryRow(server: Server, id: string) {
  const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db
      .prepare(
        `SELECT status, attempts, responseStatusCode, responseBody, leaseOwner FROM "WebhookDelivery" WHERE id = ?`,
      )
      .get(id) as {
      status: string;
      attempts: number;
      responseStatusCode: number | null;
      responseBody: string | null;
      leaseOwner: string | null;
    };
  } finally {
    db.close();
  }
}

/** Both signatures of a received delivery verify against the endpoint's public key. */
function expectSigned(request: Received, endpoint: Endpoint) {
  const key = createPublicKey(endpoint.publicKey);
  expect(
    verify(null, Buffer.from(request.body), key, Buffer.from(request.headers["x-webhook-signature"] as string, "hex")),
  ).toBe(true);
  const signed = `${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.${request.body}`;
  const signature = (request.headers["webhook-signature"] as string).replace(/^v1a,/, "");
  expect(verify(null, Buffer.from(signed), key, Buffer.from(signature, "base64"))).toBe(true);
}

test.describe("webhook delivery by the server", () => {
  test.setTimeout(180_000);
  const servers: Server[] = [];
  const receivers: { close: () => Promise<void> }[] = [];
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, server] of servers.entries())
        writeFileSync(testInfo.outputPath(`server-${i}.log`), server.output());
    }
    await Promise.all(servers.splice(0).map((server) => server.kill()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  /** A server as startServer starts it, killed after the test (its log kept when the test fails). */
  async function serve(...args: Parameters<typeof startServer>) {
    const server = await startServer(...args);
    servers.push(server);
    return server;
  }
  /** A receiver as startReceiver starts it, closed after the test. */
  async function receive(...args: Parameters<typeof startReceiver>) {
    const receiver = await startReceiver(...args);
    receivers.push(receiver);
    return receiver;
  }

  test("an event committed before a SIGKILL, with the receiver down, arrives after the restart", async () => {
    // The first server polls once an hour: the change surely commits before it would send anything.
    const first = await serve({ WEBHOOK_POLL_MS: "3600000" });
    const key = await platformKey(first);
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close(); // the receiver is down while the change is made
    const endpoint = await createEndpoint(first, key, `http://127.0.0.1:${port}/hooks`);
    const sent = await sendTestEvent(first, key, endpoint);
    expect(deliveryRow(first, sent.id)).toMatchObject({ status: "pending", attempts: 0 });

    await first.kill();
    const receiver = await receive({ port });
    const second = await serve({ WEBHOOK_POLL_MS: "200" }, first.dataDir);

    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const request = receiver.received[0]!;
    expect(request.headers["webhook-id"]).toBe(sent.id);
    expect(JSON.parse(request.body)).toMatchObject({
      id: sent.id,
      type: "webhook.test",
      data: { webhookEndpointId: endpoint.id },
    });
    expectSigned(request, endpoint);
    await expect.poll(() => deliveryRow(second, sent.id).status).toBe("delivered");
    expect(deliveryRow(second, sent.id)).toMatchObject({
      attempts: 1,
      responseStatusCode: 200,
      responseBody: "received",
    });
  });

  test("two server processes on one database deliver each attempt once", async () => {
    const receiver = await receive({ holdMs: 50 });
    const one = await serve({ WEBHOOK_POLL_MS: "50" });
    const key = await platformKey(one);
    const two = await serve({ WEBHOOK_POLL_MS: "50" }, one.dataDir);
    const endpoint = await createEndpoint(one, key, receiver.url);

    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 10; i += 1) ids.push((await sendTestEvent(writer % 2 ? two : one, key, endpoint)).id);
      }),
    );
    await expect
      .poll(() => new Set(receiver.received.map((request) => request.headers["webhook-id"])).size, { timeout: 60_000 })
      .toBe(40);
    await expect.poll(() => ids.filter((id) => deliveryRow(one, id).status !== "delivered").length).toBe(0);
    // Time for a duplicate to show up, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(40);
    expect(new Set(receiver.received.map((request) => request.headers["webhook-id"]))).toEqual(new Set(ids));
    for (const id of ids) expect(deliveryRow(one, id).attempts).toBe(1);
  });

  test("SIGTERM waits for the delivery in flight, records it, and the server exits", async () => {
    const receiver = await receive({ holdMs: 3_000 });
    const server = await serve({ WEBHOOK_POLL_MS: "100" });
    const key = await platformKey(server);
    const endpoint = await createEndpoint(server, key, receiver.url);
    const sent = await sendTestEvent(server, key, endpoint);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);

    const asked = Date.now();
    await server.stop();
    const took = Date.now() - asked;
    // It waited for the receiver's answer (held 3 s), well within the attempt's 10 s bound.
    expect(took).toBeGreaterThan(2_000);
    expect(took).toBeLessThan(15_000);
    expect(deliveryRow(server, sent.id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      responseStatusCode: 200,
      responseBody: "received",
      leaseOwner: null,
    });
  });
});
