import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { test, expect } from "@playwright/test";
import {
  alive,
  authenticatorFor,
  httpRequest,
  OWNER,
  printedSetupLink,
  startReceiver,
  startServer,
  type Answer as HttpAnswer,
  type Call,
  type Server,
} from "./fixtures";

// WEB_CONCURRENCY=2 against the production server (server.mjs): two worker processes behind one
// port, each with its own memory, share only the database. What one worker learns (a TOTP step
// spent, a key revoked, failed sign-ins, a delivery taken) holds in the other at once; a worker
// killed mid-burst loses no acknowledged write and is replaced; SIGTERM stops everything cleanly.
// Servers a Playwright test starts name the serving process in X-Worker-Pid; a keep-alive
// connection stays with the worker that accepted it, so a one-socket agent is a client "on" a worker.

type Answer = HttpAnswer & { pid: number };

function request(server: Server, agent: http.Agent | false, pathname: string, init: Call = {}): Promise<Answer> {
  return httpRequest(`${server.baseURL}${pathname}`, { ...init, agent }).then((answer) => ({
    ...answer,
    pid: Number(answer.headers["x-worker-pid"]),
  }));
}

/** A request on a new connection: the primary hands each new connection to the next worker in turn. */
const fresh = (server: Server, pathname: string, init: Call = {}) => request(server, false, pathname, init);

/** A client whose one keep-alive connection is served by the worker `pid`; every answer is checked to come from it. */
type Pinned = { pid: number; call: (pathname: string, init?: Call) => Promise<Answer>; close: () => void };

async function pinnedClients(server: Server, pids: number[]): Promise<Pinned[]> {
  const clients: Pinned[] = [];
  for (const pid of pids) {
    for (let tries = 0; ; tries += 1) {
      expect(tries, `no connection landed on worker ${pid}`).toBeLessThan(20);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const probe = await request(server, agent, "/healthz");
      if (probe.pid !== pid) {
        agent.destroy();
        continue;
      }
      clients.push({
        pid,
        call: async (pathname, init) => {
          const answer = await request(server, agent, pathname, init);
          expect(answer.pid, `answered by worker ${pid}`).toBe(pid);
          return answer;
        },
        close: () => agent.destroy(),
      });
      break;
    }
  }
  return clients;
}

/** The pids of the workers the primary reported ready, in order (replacements included). */
const readyWorkers = (server: Server) =>
  [...server.output().matchAll(/Worker \d+ \(pid (\d+)\) is ready/g)].map((match) => Number(match[1]));

/** A key's requests by outcome as the workers added them to ApiKeyUsageDay (all days). */
function usageCounts(server: Server, apiKeyId: string) {
  const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  try {
    db.pragma("busy_timeout = 5000");
    const rows = db
      .prepare(`SELECT outcome, SUM(count) AS count FROM "ApiKeyUsageDay" WHERE "apiKeyId" = ? GROUP BY outcome`)
      .all(apiKeyId) as { outcome: string; count: number }[];
    return Object.fromEntries(rows.map((row) => [row.outcome, row.count]));
  } finally {
    db.close();
  }
}

function deliveryRow(server: Server, id: string) {
  const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(`SELECT status, attempts FROM "WebhookDelivery" WHERE id = ?`).get(id) as {
      status: string;
      attempts: number;
    };
  } finally {
    db.close();
  }
}

test.describe.serial("two worker processes on one port (WEB_CONCURRENCY=2)", () => {
  test.setTimeout(180_000);
  let server: Server;
  let one: Pinned;
  let two: Pinned;
  let cookie: string;
  /** A sandbox platform's API key (default permissions: keys, delegated users, webhooks). */
  let platformKey: string;
  const asOwner = (client: Pinned, pathname: string, init: Call = {}) =>
    client.call(pathname, { ...init, headers: { cookie, origin: server.baseURL, ...init.headers } });
  const withKey = (client: Pinned, key: string, pathname: string, init: Call = {}) =>
    client.call(pathname, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

  test.beforeAll(async () => {
    // TRUST_PROXY=1 lets the throttle test speak as a client of its own; no SETUP_TOKEN: the server prints its link.
    server = await startServer({ WEB_CONCURRENCY: "2", WEBHOOK_POLL_MS: "50", TRUST_PROXY: "1", SETUP_TOKEN: "" });
  });

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("server.log"), server.output());
  });

  test.afterAll(async () => {
    one?.close();
    two?.close();
    await server?.kill();
  });

  test("both workers serve the port; start-up work ran once (one setup link, migrations applied once)", async () => {
    const pids = readyWorkers(server);
    expect(pids).toHaveLength(2);
    expect(new Set(pids).size).toBe(2);
    expect(server.output()).toMatch(/Listening on http:\/\/\S+ with 2 worker processes/);
    expect(server.output().match(/First-run setup/g)).toHaveLength(1);
    expect(server.output().match(/Applied migrations/g)).toHaveLength(1);

    const served = await Promise.all(Array.from({ length: 12 }, () => fresh(server, "/healthz")));
    expect(served.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(new Set(served.map((answer) => answer.pid))).toEqual(new Set(pids));

    [one, two] = (await pinnedClients(server, pids)) as [Pinned, Pinned];
    // The first worker generated and printed the setup token (the link says <port>: PORT=0); the
    // second accepts it, and then the first knows setup is done.
    const token = decodeURIComponent(/\/setup\?token=([A-Za-z0-9_%-]+)/.exec(printedSetupLink(server) ?? "")![1]!);
    const setup = await two.call("/v1/setup", { method: "POST", body: { ...OWNER, setupToken: token } });
    expect(setup.status, setup.body).toBe(201);
    const again = await one.call("/v1/setup", { method: "POST", body: { ...OWNER, setupToken: token } });
    expect(again.status).toBe(409);
    cookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
    // A session made on one worker is good on the other, and one signed out on one is gone on the other.
    expect((await asOwner(one, "/v1/sessions/current")).status).toBe(200);
    const other = await one.call("/v1/sessions", {
      method: "POST",
      body: { email: OWNER.email, password: OWNER.password },
    });
    expect(other.status, other.body).toBe(200);
    const otherCookie = { cookie: other.headers["set-cookie"]![0]!.split(";")[0]!, origin: server.baseURL };
    expect((await two.call("/v1/sessions/current", { headers: otherCookie })).status).toBe(200);
    expect((await two.call("/v1/sessions/current", { method: "DELETE", headers: otherCookie })).status).toBe(200);
    expect((await one.call("/v1/sessions/current", { headers: otherCookie })).status).toBe(401);
    const platform = await asOwner(two, "/v1/sandbox/platforms", {
      method: "POST",
      body: { accountName: "Tenant on two workers" },
    });
    expect(platform.status, platform.body).toBe(201);
    const { id: platformKeyId, secret } = platform.json().apiKey as { id: string; secret: string };
    platformKey = secret;
    // The bursts below send far more than the default 100 requests a second: the key gets a limit they never reach.
    const unhurried = await withKey(one, platformKey, `/v1/api_keys/${platformKeyId}`, {
      method: "POST",
      body: { rateLimit: { requests: 100_000, perSeconds: 1 } },
    });
    expect(unhurried.status, unhurried.body).toBe(200);
  });

  test("a TOTP code accepted by one worker is refused by the other", async () => {
    const started = await asOwner(one, "/v1/employees/totp", { method: "POST", body: { password: OWNER.password } });
    expect(started.status, started.body).toBe(200);
    const authenticator = authenticatorFor(started.json().secret as string);
    expect(
      (await asOwner(two, "/v1/employees/totp/confirm", { method: "POST", body: { code: await authenticator.next() } }))
        .status,
    ).toBe(200);

    const code = await authenticator.next();
    const body = { name: "issued with a code", expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
    const accepted = await asOwner(one, "/v1/api_keys", {
      method: "POST",
      body,
      headers: { "service-totp-code": code },
    });
    expect(accepted.status, accepted.body).toBe(201);
    const replayed = await asOwner(two, "/v1/api_keys", {
      method: "POST",
      body,
      headers: { "service-totp-code": code },
    });
    expect(replayed.status).toBe(400);
    expect(replayed.json()).toMatchObject({ error_code: "err_otp_invalid" });
    // And the other way round, with the next code.
    const next = await authenticator.next();
    expect(
      (await asOwner(two, "/v1/api_keys", { method: "POST", body, headers: { "service-totp-code": next } })).status,
    ).toBe(201);
    expect(
      (await asOwner(one, "/v1/api_keys", { method: "POST", body, headers: { "service-totp-code": next } })).status,
    ).toBe(400);
  });

  test("a key revoked through one worker is refused on the next request, whichever worker gets it", async () => {
    const issued = await withKey(one, platformKey, "/v1/api_keys", {
      method: "POST",
      body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(issued.status, issued.body).toBe(201);
    const { id, secret } = issued.json() as { id: string; secret: string };
    // Both workers have used the key (anything a worker kept about it would be kept now).
    for (let i = 0; i < 3; i += 1) {
      expect((await withKey(one, secret, "/v1/api_keys")).status).toBe(200);
      expect((await withKey(two, secret, "/v1/api_keys")).status).toBe(200);
    }
    const revoked = await withKey(one, platformKey, `/v1/api_keys/${id}`, { method: "DELETE" });
    expect(revoked.status, revoked.body).toBe(200);
    expect((await withKey(two, secret, "/v1/api_keys")).status).toBe(401);
    expect((await withKey(one, secret, "/v1/api_keys")).status).toBe(401);
    const later = await Promise.all(
      Array.from({ length: 8 }, () =>
        fresh(server, "/v1/api_keys", { headers: { authorization: `Bearer ${secret}` } }),
      ),
    );
    expect(later.map((answer) => answer.status)).toEqual(Array(8).fill(401));
    expect(new Set(later.map((answer) => answer.pid)).size).toBe(2);
  });

  test("the sign-in throttle counts attempts made on both workers together", async () => {
    const client = { "x-forwarded-for": "203.0.113.77" }; // one client (TRUST_PROXY=1), its own count
    const attempt = (worker: Pinned, password: string) =>
      worker.call("/v1/sessions", { method: "POST", body: { email: OWNER.email, password }, headers: client });
    // The limit is 5 wrong passwords per (e-mail, client): alternating workers, the sixth is refused,
    // where each worker counting alone would allow ten.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await attempt(i % 2 ? two : one, `wrong guess ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    for (const worker of [two, one]) {
      const refused = await attempt(worker, "yet another guess");
      expect(refused.status).toBe(429);
      expect(refused.json()).toMatchObject({ error_code: "err_rate_limited" });
    }
    // The right password is not checked either, on either worker.
    expect((await attempt(one, OWNER.password)).status).toBe(429);
    expect((await attempt(two, OWNER.password)).status).toBe(429);
  });

  test("a webhook attempt is sent once, though both workers run a delivery worker", async () => {
    const receiver = await startReceiver({ holdMs: 20 });
    try {
      const endpoint = await withKey(one, platformKey, "/v1/webhook_endpoints", {
        method: "POST",
        body: { url: receiver.url, events: ["webhook.test"] },
      });
      expect(endpoint.status, endpoint.body).toBe(201);
      const endpointId = endpoint.json().id as string;
      const ids: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        const sent = await withKey(i % 2 ? two : one, platformKey, `/v1/webhook_endpoints/${endpointId}/test`, {
          method: "POST",
          body: {},
        });
        expect(sent.status, sent.body).toBeLessThan(300);
        ids.push(sent.json().id as string);
      }
      await expect
        .poll(() => ids.filter((id) => deliveryRow(server, id).status !== "delivered").length, { timeout: 60_000 })
        .toBe(0);
      // Time for a duplicate to show up, had one been sent.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.received).toHaveLength(30);
      expect(new Set(receiver.received.map((request) => request.headers["webhook-id"]))).toEqual(new Set(ids));
      for (const id of ids) expect(deliveryRow(server, id).attempts).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  test("SIGKILL of one worker mid-burst loses no acknowledged write, and the primary replaces it", async () => {
    const [survivor, victim] = readyWorkers(server) as [number, number];
    one.close();
    two.close();
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let sent = 0;
    let stop = false;
    const writer = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!stop && sent < 3_000) {
          const externalId = `burst-${sent++}`;
          try {
            const answer = await request(server, agent, "/v1/delegated_users", {
              method: "POST",
              body: { externalId },
              headers: { authorization: `Bearer ${platformKey}` },
            });
            if (answer.status === 201) acknowledged.push(externalId);
            else failures.push(`${answer.status} ${answer.body}`);
          } catch {
            // The connection died with its worker (reset, or closed mid-answer): never acknowledged.
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const writers = Array.from({ length: 12 }, writer);
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(100);
    process.kill(victim, "SIGKILL");
    const atKill = acknowledged.length;
    // The writers carry on (on the survivor, then on both) until the replacement is up and has been
    // given connections, and some more writes have been acknowledged.
    await expect.poll(() => readyWorkers(server).length, { timeout: 90_000 }).toBe(3);
    const replacement = readyWorkers(server)[2]!;
    expect(server.output()).toMatch(new RegExp(`pid ${victim}\\) died unexpectedly \\(signal SIGKILL\\)`));
    expect(server.output()).toMatch(new RegExp(`pid ${replacement}\\) is ready, replacing worker`));
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(atKill + 100);
    stop = true;
    await Promise.all(writers);
    expect(failures).toEqual([]);

    const served = await Promise.all(Array.from({ length: 8 }, () => fresh(server, "/healthz")));
    expect(new Set(served.map((answer) => answer.pid))).toEqual(new Set([survivor, replacement]));
    expect(alive(victim)).toBe(false);

    const stored = new Set<string>();
    let next: string | null = null;
    do {
      const page = await fresh(server, `/v1/delegated_users?limit=100${next ? `&next=${next}` : ""}`, {
        headers: { authorization: `Bearer ${platformKey}` },
      });
      expect(page.status).toBe(200);
      const { items, next: after } = page.json() as { items: { externalId: string }[]; next: string | null };
      items.forEach((item) => stored.add(item.externalId));
      next = after;
    } while (next);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  test("SIGTERM stops every worker cleanly: the delivery in flight finishes and is recorded, each worker's key usage counts are written, then the primary exits", async () => {
    const workers = readyWorkers(server).filter(alive);
    expect(workers).toHaveLength(2);
    const receiver = await startReceiver({ holdMs: 3_000 });
    try {
      const [client] = await pinnedClients(server, [workers[0]!]);
      const endpoint = await withKey(client!, platformKey, "/v1/webhook_endpoints", {
        method: "POST",
        body: { url: receiver.url, events: ["webhook.test"] },
      });
      expect(endpoint.status, endpoint.body).toBe(201);
      const sent = await withKey(client!, platformKey, `/v1/webhook_endpoints/${endpoint.json().id as string}/test`, {
        method: "POST",
        body: {},
      });
      client!.close();
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
      // A key used on both workers just before the stop: their counts, kept in memory for up to 5 s, are written on the way out.
      const users = await pinnedClients(server, workers);
      const issued = await withKey(users[0]!, platformKey, "/v1/api_keys", {
        method: "POST",
        body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      });
      const { id: keyId, secret } = issued.json() as { id: string; secret: string };
      for (const user of users) {
        for (let i = 0; i < 4; i += 1) expect((await withKey(user, secret, "/v1/api_keys")).status).toBe(200);
        expect((await withKey(user, secret, "/v1/api_keys/key_00000000000000000000/usage")).status).toBe(404);
        user.close();
      }
      await server.stop(); // resolves when the primary has exited
      const output = server.output();
      expect(output).toContain("SIGTERM: stopping 2 worker processes");
      expect(output.match(/\) stopped \(exit code 0\)/g)).toHaveLength(2);
      expect(output).toContain("All worker processes stopped cleanly");
      expect(output.slice(output.indexOf("SIGTERM: stopping"))).not.toMatch(/died unexpectedly|is ready/);
      for (const pid of workers) expect(alive(pid)).toBe(false);
      expect(deliveryRow(server, sent.json().id as string)).toEqual({ status: "delivered", attempts: 1 });
      expect(usageCounts(server, keyId)).toEqual({ ok: 8, client_error: 2 });
    } finally {
      await receiver.close();
    }
  });
});
