import { createPublicKey, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { platformWithKey } from "@/lib/testing/factories";
import { withScope } from "@/lib/tenancy";
import { emitEvent } from "@/lib/webhooks/events";
import type { EventType } from "@/lib/webhooks/event-types";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  sendTestEvent,
  updateWebhookEndpoint,
} from "@/lib/webhooks/webhook-endpoints";
import { createWebhookWorker, GIVE_UP_AFTER_MS, retryDelay, type WorkerOptions } from "@/lib/webhooks/worker";

const owner = { type: "employee", role: "owner", permissions: ROLE_PERMISSIONS.owner } as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
type Answer = (request: Received, response: http.ServerResponse) => unknown;

/** A real HTTP receiver on 127.0.0.1; `answer` decides each response (200 unless changed). */
async function startReceiver(port = 0) {
  const received: Received[] = [];
  let answer: Answer = (_request, response) => response.end("ok");
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      void answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const receiver = {
    received,
    port: (server.address() as AddressInfo).port,
    url: (path = "/hooks") => `http://127.0.0.1:${receiver.port}${path}`,
    answer(next: Answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

const receivers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
// The file's tests share one database: what an earlier test left pending is not this test's work.
beforeEach(async () => {
  await db().webhookDelivery.updateMany({
    where: { status: "pending" },
    data: { status: "failed", nextAttemptAt: null },
  });
});

/** A clock the test moves. */
function clock(start = new Date("2030-01-01T00:00:00Z")) {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advance: (ms: number) => (at += ms),
    get ms() {
      return at;
    },
  };
}

/** An endpoint of a new platform, made through the API's own domain function. */
async function endpointFor(
  url: string,
  events: EventType[] = ["webhook.test", "api_key.expiring", "recipient.deleted"],
) {
  const { account, scope } = await platformWithKey();
  const endpoint = await withScope(scope, () => createWebhookEndpoint({ url, events, enabled: true }));
  return { account, scope, endpoint };
}

const worker = (time: ReturnType<typeof clock>, options: WorkerOptions = {}) =>
  createWebhookWorker({ now: time.now, random: () => 0.5, timeoutMs: 2_000, log: () => {}, ...options });

const deliveryRow = (id: string) => db().webhookDelivery.findUniqueOrThrow({ where: { id } });

describe("a delivery", () => {
  it("is POSTed with both signatures, which verify against the endpoint's public key, and the event's fields", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { account, endpoint } = await endpointFor(receiver.url("/hooks?source=test"));
    await emitEvent("recipient.deleted", { id: "rcp_1", name: "Ada" }, { accountId: account.id, now: time.now() });
    time.advance(1500);

    expect(await worker(time).runOnce()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.path).toBe("/hooks?source=test");
    expect(request!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request!.body);
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { webhookEndpointId: endpoint.id } });
    expect(body).toEqual({
      id: delivery.id,
      type: "recipient.deleted",
      data: { id: "rcp_1", name: "Ada", accountId: account.id },
      occurredAt: "2030-01-01T00:00:00.000Z",
      attemptedAt: "2030-01-01T00:00:01.500Z",
    });
    const publicKey = createPublicKey(endpoint.publicKey);
    // Due's signature: hex Ed25519 over the raw body.
    const hex = request!.headers["x-webhook-signature"] as string;
    expect(hex).toMatch(/^[0-9a-f]{128}$/);
    expect(verify(null, Buffer.from(request!.body), publicKey, Buffer.from(hex, "hex"))).toBe(true);
    // Standard Webhooks: base64 Ed25519 over "<id>.<timestamp>.<body>", the timestamp in Unix seconds.
    expect(request!.headers["webhook-id"]).toBe(delivery.id);
    expect(request!.headers["webhook-timestamp"]).toBe(String(Math.floor(time.ms / 1000)));
    const [version, signature] = (request!.headers["webhook-signature"] as string).split(",");
    expect(version).toBe("v1a");
    const signed = `${delivery.id}.${request!.headers["webhook-timestamp"]}.${request!.body}`;
    expect(verify(null, Buffer.from(signed), publicKey, Buffer.from(signature!, "base64"))).toBe(true);
    // A replay under a changed timestamp does not verify.
    expect(
      verify(
        null,
        Buffer.from(`${delivery.id}.${Number(request!.headers["webhook-timestamp"]) + 1}.${request!.body}`),
        publicKey,
        Buffer.from(signature!, "base64"),
      ),
    ).toBe(false);
    // Nor does another endpoint's key.
    const other = await endpointFor(receiver.url());
    expect(
      verify(null, Buffer.from(request!.body), createPublicKey(other.endpoint.publicKey), Buffer.from(hex, "hex")),
    ).toBe(false);

    expect(await deliveryRow(delivery.id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      responseStatusCode: 200,
      responseBody: "ok",
      lastError: null,
      lastAttemptAt: new Date(time.ms),
      nextAttemptAt: null,
      leaseUntil: null,
      leaseOwner: null,
    });
  });

  it("answered 500 is retried after about a minute, then delivered on a 200, with attempts counted", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    receiver.answer((_request, response) => {
      response.statusCode = 500;
      response.end("x".repeat(5000));
    });
    const work = worker(time);

    expect(await work.runOnce()).toBe(1);
    const failed = await deliveryRow(sent.id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, responseStatusCode: 500, lastError: "HTTP 500" });
    expect(failed.responseBody).toBe("x".repeat(1024));
    expect(failed.nextAttemptAt!.getTime() - time.ms).toBe(1 * MINUTE);

    // Not due yet: nothing is sent.
    time.advance(59_000);
    expect(await work.runOnce()).toBe(0);
    receiver.answer((_request, response) => response.end('{"thanks":true}'));
    time.advance(1_000);
    expect(await work.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);
    expect(await deliveryRow(sent.id)).toMatchObject({
      status: "delivered",
      attempts: 2,
      responseStatusCode: 200,
      responseBody: '{"thanks":true}',
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it("to a receiver that is down (connection refused) is retried and delivered once it is up", async () => {
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    const time = clock();
    const { scope, endpoint } = await endpointFor(`http://127.0.0.1:${port}/hooks`);
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    const work = worker(time);

    expect(await work.runOnce()).toBe(1);
    const refused = await deliveryRow(sent.id);
    expect(refused).toMatchObject({ status: "pending", attempts: 1, responseStatusCode: null });
    // Not Node's own words ("connect ECONNREFUSED 127.0.0.1:<port>"): they carry the address connected to.
    expect(refused.lastError).toBe("could not connect, or no answer within 2 s");

    const receiver = await startReceiver(port);
    time.advance(1 * MINUTE);
    expect(await work.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(sent.id)).toMatchObject({ status: "delivered", attempts: 2, lastError: null });
  });

  it("answered with a redirect does not follow it: a failure, retried later", async () => {
    const receiver = await startReceiver();
    receiver.answer((request, response) => {
      if (request.path === "/elsewhere") return void response.end("followed");
      response.writeHead(307, { Location: receiver.url("/elsewhere") }).end();
    });
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));

    expect(await worker(time).runOnce()).toBe(1);
    expect(receiver.received.map((request) => request.path)).toEqual(["/hooks"]);
    expect(await deliveryRow(sent.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatusCode: 307,
      lastError: "redirect (HTTP 307) not followed",
    });
  });

  it("to a receiver that does not answer in time is cut off at the timeout and retried", async () => {
    const receiver = await startReceiver();
    receiver.answer(() => {}); // never answers
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));

    const started = Date.now();
    expect(await worker(time, { timeoutMs: 300 }).runOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(sent.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatusCode: null,
      lastError: "could not connect, or no answer within 0.3 s",
    });
  });

  it("to an address the guard refuses is not sent, and the reason is recorded", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { scope, endpoint } = await endpointFor("http://localhost:1/hooks");
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    // localhost resolving to a public address is refused for http, which is only for loopback.
    const lookup = async () => [{ address: "93.184.216.34", family: 4 }];
    const logged: string[] = [];

    expect(await worker(time, { lookup, log: (line) => logged.push(line) }).runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(0);
    const row = await deliveryRow(sent.id);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatusCode: null,
      lastError:
        "address not allowed: localhost resolves to an address that is not loopback; http is only for loopback",
    });
    // The address is for the service's log, not the tenant's delivery log.
    expect(logged.join("\n")).toContain(`delivery ${sent.id}: localhost resolves to 93.184.216.34`);
  });

  it("of a deleted or disabled endpoint is not sent", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const first = await endpointFor(receiver.url());
    const second = await endpointFor(receiver.url());
    const a = await withScope(first.scope, () =>
      sendTestEvent({ id: first.endpoint.id, now: time.now(), viewer: owner }),
    );
    const b = await withScope(second.scope, () =>
      sendTestEvent({ id: second.endpoint.id, now: time.now(), viewer: owner }),
    );
    await withScope(first.scope, () => deleteWebhookEndpoint({ id: first.endpoint.id }));
    await withScope(second.scope, () =>
      updateWebhookEndpoint({ id: second.endpoint.id, enabled: false, actor: owner }),
    );

    expect(await worker(time).runOnce()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    expect((await deliveryRow(a.id)).status).toBe("failed");
    expect((await deliveryRow(b.id)).status).toBe("pending");
  });
});

describe("retries", () => {
  it("back off about 1 min, 5 min, 30 min, 2 h, 5 h, then every 10 h, with ±10 % jitter", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempts) => retryDelay(attempts, () => 0.5))).toEqual([
      1 * MINUTE,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(retryDelay(1, () => 0)).toBe(54_000);
    expect(retryDelay(1, () => 1)).toBe(66_000);
  });

  it("follow the schedule until 3 days after the event, then the delivery fails and the dead endpoint is disabled and audited", async () => {
    const receiver = await startReceiver();
    receiver.answer((_request, response) => response.writeHead(503).end("down"));
    const time = clock();
    const { account, scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    const work = worker(time);
    const start = time.ms;

    const waits: number[] = [];
    for (;;) {
      expect(await work.runOnce()).toBe(1);
      const row = await deliveryRow(sent.id);
      if (row.status !== "pending") break;
      waits.push(row.nextAttemptAt!.getTime() - time.ms);
      // One moment early: not due.
      time.advance(row.nextAttemptAt!.getTime() - time.ms - 1);
      expect(await work.runOnce()).toBe(0);
      time.advance(1);
    }
    expect(waits).toEqual([1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, ...Array(6).fill(10 * HOUR)]);
    const last = await deliveryRow(sent.id);
    expect(last).toMatchObject({
      status: "failed",
      attempts: 12,
      nextAttemptAt: null,
      responseStatusCode: 503,
      lastError: "HTTP 503",
    });
    // The last attempt was the last one before the 3 days ran out.
    expect(time.ms - start).toBeLessThan(GIVE_UP_AFTER_MS);
    expect(time.ms + 10 * HOUR - start).toBeGreaterThan(GIVE_UP_AFTER_MS);
    expect(receiver.received).toHaveLength(12);

    const disabled = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(disabled).toMatchObject({ enabled: false, disabledAt: new Date(time.ms) });
    const audit = await db().auditEvent.findMany({
      where: { action: "webhook_endpoint.auto_disable", targetId: endpoint.id },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      platformId: account.id,
      actedForAccountId: account.id,
      actorId: null,
      outcome: "success",
    });
    expect(audit[0]!.details).toMatchObject({
      before: { enabled: true },
      after: { enabled: false, disabledAt: new Date(time.ms).toISOString() },
      url: endpoint.url,
    });
  });

  it("an endpoint that took a delivery within the 3 days is not disabled when another delivery gives up", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const old = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    const work = worker(time);
    receiver.answer((_request, response) => response.writeHead(500).end());
    await work.runOnce();
    // Two days later another event gets through.
    time.advance(48 * HOUR);
    receiver.answer((request, response) => response.writeHead(request.body.includes(old.id) ? 500 : 200).end());
    const fresh = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    while ((await deliveryRow(old.id)).status === "pending") {
      time.advance((await deliveryRow(old.id)).nextAttemptAt!.getTime() - time.ms);
      await work.runOnce();
    }
    expect((await deliveryRow(fresh.id)).status).toBe("delivered");
    expect((await deliveryRow(old.id)).status).toBe("failed");
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: true,
      disabledAt: null,
    });
  });
});

describe("leases", () => {
  it("two workers on one database send each delivery once", async () => {
    const receiver = await startReceiver();
    receiver.answer((_request, response) => setTimeout(() => response.end("ok"), 20));
    const time = clock();
    const { account } = await endpointFor(receiver.url());
    for (let i = 0; i < 25; i += 1)
      await emitEvent("recipient.deleted", { id: `rcp_${i}` }, { accountId: account.id, now: time.now() });
    const one = worker(time, { owner: "one", batchSize: 5 });
    const two = worker(time, { owner: "two", batchSize: 5 });

    let taken = { one: 0, two: 0 };
    for (;;) {
      const [a, b] = await Promise.all([one.runOnce(), two.runOnce()]);
      taken = { one: taken.one + a, two: taken.two + b };
      if (a + b === 0) break;
    }
    const ids = receiver.received.map((request) => request.headers["webhook-id"]);
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    expect(taken.one + taken.two).toBe(25);
    // Both took part: the lease, not luck, kept them apart.
    expect(taken.one).toBeGreaterThan(0);
    expect(taken.two).toBeGreaterThan(0);
    expect(
      await db().webhookDelivery.count({ where: { accountId: account.id, status: "delivered", attempts: 1 } }),
    ).toBe(25);
  });

  it("a delivery leased by a worker that died is taken over once the lease runs out, not before", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    await db().webhookDelivery.update({
      where: { id: sent.id },
      data: { leaseOwner: "crashed", leaseUntil: new Date(time.ms + 30_000) },
    });
    const work = worker(time);

    expect(await work.runOnce()).toBe(0);
    time.advance(30_001);
    expect(await work.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(sent.id)).toMatchObject({ status: "delivered", leaseOwner: null });
  });
});

describe("the running worker", () => {
  it("sends new work within its poll interval, and on stop takes no new work but finishes the attempt in flight", async () => {
    const receiver = await startReceiver();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.answer(async (_request, response) => {
      await held;
      response.end("late but fine");
    });
    // Only test events: the running worker also sends api_key.expiring for the factory's 30-day keys.
    const { scope, endpoint } = await endpointFor(receiver.url(), ["webhook.test"]);
    const running = createWebhookWorker({ pollMs: 20, log: () => {} });
    running.start();
    try {
      const first = await withScope(scope, () => sendTestEvent({ id: endpoint.id, viewer: owner }));
      await expect.poll(() => receiver.received.length, { timeout: 5_000 }).toBe(1);

      let stopped = false;
      const stopping = running.stop(5_000).then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(false); // waiting for the attempt in flight
      const second = await withScope(scope, () => sendTestEvent({ id: endpoint.id, viewer: owner }));
      release();
      await stopping;
      expect(await deliveryRow(first.id)).toMatchObject({ status: "delivered", responseBody: "late but fine" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).toHaveLength(1);
      expect(await deliveryRow(second.id)).toMatchObject({ status: "pending", attempts: 0 });
    } finally {
      release();
      await running.stop(1_000);
    }
  });
});

// What a delivery's lastError tells the endpoint's tenant (docs/security.md, Outbound requests and
// webhook URLs): what failed, never which internal address a name resolved to, nor a system message
// that carries one.
describe("a failed delivery's error says what failed, and names no internal address", () => {
  const ADDRESS = /\d+\.\d+\.\d+\.\d+|\[?[0-9a-f]*:[0-9a-f:]+\]?:\d|::/i;

  async function failedAttempt(url: string, options: WorkerOptions = {}) {
    const time = clock();
    const { scope, endpoint } = await endpointFor(url);
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    const logged: string[] = [];
    expect(await worker(time, { log: (line) => logged.push(line), ...options }).runOnce()).toBe(1);
    const row = await deliveryRow(sent.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    return { row, endpoint, log: logged.join("\n") };
  }

  it("address not allowed: a name that resolves to the metadata service or into ::/96, refused even with WEBHOOK_ALLOW_PRIVATE", async () => {
    for (const address of ["169.254.169.254", "::a9fe:a9fe", "::7f00:1"]) {
      const lookup = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
      const { row, log } = await failedAttempt("https://hooks.example.com/x", { lookup });
      expect(row.lastError, address).toBe(
        "address not allowed: hooks.example.com resolves to an address webhooks may not reach",
      );
      expect(row.lastError, address).not.toMatch(ADDRESS);
      expect(log, address).toContain(`hooks.example.com resolves to ${address}`);
    }
  });

  it("could not resolve: the system's code, not the resolver's message", async () => {
    const lookup = async () => {
      throw Object.assign(new Error("queryA ESERVFAIL hooks.example.com via 10.0.0.53"), { code: "ESERVFAIL" });
    };
    const { row, log } = await failedAttempt("https://hooks.example.com/x", { lookup });
    expect(row.lastError).toBe("could not resolve hooks.example.com (ESERVFAIL)");
    expect(log).toContain("10.0.0.53");
  });

  // The fourth outside attack used an error like "ECONNRESET" against "ECONNREFUSED" to map open ports.
  it("no HTTP answer reads the same whether the port is closed, open and silent, or speaks no HTTPS; the log says which", async () => {
    const probe = await startReceiver();
    await probe.close();
    const closed = await failedAttempt(`http://127.0.0.1:${probe.port}/hooks`, { timeoutMs: 300 });
    const silent = await startReceiver();
    silent.answer(() => {});
    const open = await failedAttempt(silent.url(), { timeoutMs: 300 });
    const plain = await startReceiver();
    const tls = await failedAttempt(`https://127.0.0.1:${plain.port}/hooks`, { timeoutMs: 300 });
    for (const { row } of [closed, open, tls]) {
      expect(row).toMatchObject({
        lastError: "could not connect, or no answer within 0.3 s",
        responseStatusCode: null,
      });
    }
    expect(closed.log).toContain("ECONNREFUSED");
    expect(open.log).toContain("timed out after 300 ms");
    expect(tls.log).toMatch(/\((EPROTO|ERR_SSL_[A-Z_]+|ECONNRESET)\)/);
  });

  it("an HTTP status, and a connection lost half-way through the answer", async () => {
    const receiver = await startReceiver();
    receiver.answer((_request, response) => response.writeHead(502).end("bad gateway at 10.1.2.3"));
    expect((await failedAttempt(receiver.url())).row).toMatchObject({ lastError: "HTTP 502", responseStatusCode: 502 });
    receiver.answer((_request, response) => {
      response.writeHead(200, { "Content-Length": "1000" });
      response.write("partial");
      setTimeout(() => response.socket?.destroy(), 50);
    });
    const { row } = await failedAttempt(receiver.url());
    expect(row.lastError).toMatch(/^connection lost while reading the answer \(HTTP 200(, [A-Z_]+)?\)$/);
    expect(row.responseStatusCode).toBe(200);
  });

  it("a failure of the service's own (an endpoint key it cannot decrypt) is logged, and the tenant reads only that it could not send", async () => {
    const receiver = await startReceiver();
    const time = clock();
    const { scope, endpoint } = await endpointFor(receiver.url());
    const sent = await withScope(scope, () => sendTestEvent({ id: endpoint.id, now: time.now(), viewer: owner }));
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { privateKey: "v1:not-a-sealed-key" } });
    const logged: string[] = [];
    expect(await worker(time, { log: (line) => logged.push(line) }).runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(sent.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "could not send (internal error)",
    });
    expect(logged.join("\n")).toMatch(new RegExp(`delivery ${sent.id}: could not send: .+`));
  });
});
