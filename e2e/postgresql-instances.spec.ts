import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  authenticatorFor,
  httpRequest,
  OWNER,
  startReceiver,
  startServer,
  type Answer,
  type Call,
  type Server,
} from "./fixtures";
import { createDatabase, expect, missingPostgresql, onPostgresql, test } from "./postgresql-fixture";

// Two separate server processes (two "machines": each its own DATA_DIR, one ENCRYPTION_KEY, as
// docs/operations.md asks) on one PostgreSQL database, behind a round-robin proxy, as a load balancer runs
// them: the same journey as e2e/instances.spec.ts (WEB_CONCURRENCY=2 on SQLite). What one instance
// learns (a TOTP step spent, a key revoked, failed sign-ins, a delivery taken) holds in the other at
// once, and SIGKILL of one instance mid-burst loses no acknowledged write while the other serves on.
// Needs a PostgreSQL server (e2e/postgresql-fixture.ts): skipped, saying why, when none answers.

type Upstream = { name: string; port: number };

/**
 * The load balancer: each request goes to the next upstream in turn, bodies streamed both ways,
 * the answer marked with the upstream's name in X-Upstream. Like nginx behind TRUST_PROXY=1, it
 * passes Host through and appends the address it saw to X-Forwarded-For (so the servers know the
 * client, and a client's own X-Forwarded-For entries count for nothing). An upstream that refuses the
 * connection (down: nothing was sent to it) is skipped for the next; any other failure is the
 * client's 502 (or a cut answer), never a retry: a request that may have reached a dying instance
 * is not sent again, so the client knows only what it was told.
 */
async function startProxy() {
  const upstreams: Upstream[] = [];
  let turn = 0;
  const server = http.createServer((req, res) => {
    const first = turn++;
    const forward = (attempt: number) => {
      const upstream = upstreams[(first + attempt) % upstreams.length]!;
      const { connection: _connection, "keep-alive": _keepAlive, ...headers } = req.headers;
      const out = http.request({
        host: "127.0.0.1",
        port: upstream.port,
        method: req.method,
        path: req.url,
        agent: false,
        headers: {
          ...headers,
          "x-forwarded-for": [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", "),
          "x-forwarded-host": req.headers.host ?? "",
          "x-forwarded-proto": "http",
        },
      });
      let connected = false;
      // The body goes out only once the upstream accepted the connection: until then it can still go elsewhere.
      out.on("socket", (socket) =>
        socket.once("connect", () => {
          connected = true;
          req.pipe(out);
        }),
      );
      out.on("response", (answer) => {
        const { connection: _c, "keep-alive": _k, ...answerHeaders } = answer.headers;
        res.writeHead(answer.statusCode!, { ...answerHeaders, "x-upstream": upstream.name });
        answer.pipe(res);
        answer.on("close", () => (answer.complete ? undefined : res.destroy()));
      });
      out.on("error", (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === "ECONNREFUSED" && attempt + 1 < upstreams.length) return forward(attempt + 1);
        if (res.headersSent) return res.destroy();
        const body = JSON.stringify({ error: `upstream ${upstream.name}: ${error.message}` });
        res
          .writeHead(502, {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "x-upstream": upstream.name,
          })
          .end(body);
      });
      res.on("close", () => out.destroy());
    };
    forward(0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreams,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

type Reply = Answer & { upstream: string };

test.describe.serial("two server instances on one PostgreSQL database behind a round-robin proxy", () => {
  test.setTimeout(180_000);
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  const instances = new Map<string, Server>();
  let cookie: string;
  /** A sandbox platform's API key (default permissions: keys, delegated users, webhooks). */
  let platformKey: string;

  /** A request through the proxy (a new upstream each time), with the name of the instance that answered. */
  const via = (pathname: string, init: Call = {}): Promise<Reply> =>
    httpRequest(`${proxy!.baseURL}${pathname}`, init).then((answer) => ({
      ...answer,
      upstream: String(answer.headers["x-upstream"]),
    }));
  const asOwner = (pathname: string, init: Call = {}) =>
    via(pathname, { ...init, headers: { cookie, origin: proxy!.baseURL, ...init.headers } });
  const withKey = (key: string, pathname: string, init: Call = {}) =>
    via(pathname, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  const query = <T>(sql: string, values: unknown[] = []) =>
    onPostgresql(async (client) => (await client.query(sql, values)).rows as T[], database!.url);

  test.beforeAll(async () => {
    const missing = await missingPostgresql();
    test.skip(missing !== null, missing ?? "");
    database = await createDatabase();
    proxy = await startProxy();
    // What every instance must share: the database, the key TOTP secrets and webhook keys are
    // encrypted with, and the public origin (the proxy's, which it passes through as Host).
    const shared = {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      APP_ORIGIN: proxy.baseURL,
      TRUST_PROXY: "1",
      WEBHOOK_POLL_MS: "50",
    };
    const started = await Promise.all(
      ["a", "b"].map((name) => {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), `pmc-e2e-pg-${name}-`));
        return startServer({ ...shared, DATA_DIR: dataDir }, dataDir);
      }),
    );
    for (const [i, name] of ["a", "b"].entries()) {
      instances.set(name, started[i]!);
      proxy.upstreams.push({ name, port: Number(new URL(started[i]!.baseURL).port) });
    }
  });

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus)
      for (const [name, server] of instances) writeFileSync(testInfo.outputPath(`server-${name}.log`), server.output());
  });

  test.afterAll(async () => {
    await Promise.all([...instances.values()].map((server) => server.stop()));
    await proxy?.close();
    await database?.drop();
  });

  test("both instances serve through the proxy in turn; migrated once; setup on one is seen by the other", async () => {
    const outputs = [...instances.values()].map((server) => server.output());
    expect(
      outputs.filter((output) => /Applied migrations: \d+_init/.test(output)),
      outputs.join("\n---\n"),
    ).toHaveLength(1);

    const served: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const answer = await via("/healthz");
      expect(answer.status).toBe(200);
      served.push(answer.upstream);
    }
    expect(served).toEqual(served[0] === "a" ? ["a", "b", "a", "b", "a", "b"] : ["b", "a", "b", "a", "b", "a"]);

    const setup = await via("/v1/setup", { method: "POST", body: OWNER });
    expect(setup.status, setup.body).toBe(201);
    const again = await via("/v1/setup", { method: "POST", body: OWNER });
    expect(again.upstream).not.toBe(setup.upstream);
    expect(again.status).toBe(409);
    cookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
    // The session made on one is good on both.
    const current = [await asOwner("/v1/sessions/current"), await asOwner("/v1/sessions/current")];
    expect(current.map((answer) => answer.status)).toEqual([200, 200]);
    expect(new Set(current.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    const platform = await asOwner("/v1/sandbox/platforms", {
      method: "POST",
      body: { accountName: "Tenant on two instances" },
    });
    expect(platform.status, platform.body).toBe(201);
    const { id: platformKeyId, secret } = platform.json().apiKey as { id: string; secret: string };
    platformKey = secret;
    // The bursts below send far more than the default 100 requests a second: the key gets a limit they never reach.
    const unhurried = await withKey(platformKey, `/v1/api_keys/${platformKeyId}`, {
      method: "POST",
      body: { rateLimit: { requests: 100_000, perSeconds: 1 } },
    });
    expect(unhurried.status, unhurried.body).toBe(200);
  });

  test("the sign-in throttle counts one client's attempts on both instances together; the proxy tells the servers who the client is", async () => {
    // Wrong passwords from 127.0.0.2, alternating instances, each claiming another address in its
    // own X-Forwarded-For (which the servers ignore: only the proxy's entry is trusted). The limit is
    // 5 per (e-mail, client): exactly 5 are checked, where each instance counting alone would allow ten.
    const attempt = (from: string, password: string, claimed?: string) =>
      via("/v1/sessions", {
        method: "POST",
        body: { email: OWNER.email, password },
        localAddress: from,
        headers: claimed ? { "x-forwarded-for": claimed } : {},
      });
    const answers: Reply[] = [];
    for (let i = 0; i < 10; i += 1) answers.push(await attempt("127.0.0.2", `wrong guess ${i}`, `198.51.100.${i + 1}`));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect(new Set(answers.slice(0, 5).map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    expect(new Set(answers.slice(5).map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    for (const refused of answers.slice(5)) expect(refused.json()).toMatchObject({ error_code: "err_rate_limited" });
    // The right password is not checked either, on either instance.
    const right = [await attempt("127.0.0.2", OWNER.password), await attempt("127.0.0.2", OWNER.password)];
    expect(right.map((answer) => answer.status)).toEqual([429, 429]);
    expect(new Set(right.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    // Another client is another count: had the servers seen only the proxy's address, it would be refused too.
    const other = await attempt("127.0.0.3", OWNER.password);
    expect(other.status, other.body).toBe(200);

    // A burst at once from a third client, spread over both instances: at most 5 checked, the rest
    // refused (a crowd on one counter may refuse some early, uncounted); then wrong passwords one at
    // a time until refused: exactly 5 were checked in all.
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt("127.0.0.4", `burst guess ${i}`)));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(new Set(burst.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    for (let i = 0; i < 6 && statuses.at(-1) !== 429; i += 1)
      statuses.push((await attempt("127.0.0.4", `one more guess ${i}`)).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.at(-1)).toBe(429);
    expect((await attempt("127.0.0.4", OWNER.password)).status).toBe(429);
  });

  test("a TOTP code accepted by one instance is refused by the other", async () => {
    // Enrolment started on one instance is confirmed on the other: both read the secret (one ENCRYPTION_KEY).
    const started = await asOwner("/v1/employees/totp", { method: "POST", body: { password: OWNER.password } });
    expect(started.status, started.body).toBe(200);
    const authenticator = authenticatorFor(started.json().secret as string);
    const confirmed = await asOwner("/v1/employees/totp/confirm", {
      method: "POST",
      body: { code: await authenticator.next() },
    });
    expect(confirmed.upstream).not.toBe(started.upstream);
    expect(confirmed.status, confirmed.body).toBe(200);

    const body = { name: "issued with a code", expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
    const issue = (code: string) =>
      asOwner("/v1/api_keys", { method: "POST", body, headers: { "service-totp-code": code } });
    const code = await authenticator.next();
    const accepted = await issue(code);
    expect(accepted.status, accepted.body).toBe(201);
    const replayed = await issue(code);
    expect(replayed.upstream).not.toBe(accepted.upstream);
    expect(replayed.status).toBe(400);
    expect(replayed.json()).toMatchObject({ error_code: "err_otp_invalid" });
    // And the other way round, with the next code (a request in between moves the proxy's turn on).
    expect((await via("/healthz")).upstream).toBe(accepted.upstream);
    const next = await authenticator.next();
    const acceptedThere = await issue(next);
    expect(acceptedThere.upstream).toBe(replayed.upstream);
    expect(acceptedThere.status, acceptedThere.body).toBe(201);
    const replayedHere = await issue(next);
    expect(replayedHere.upstream).toBe(accepted.upstream);
    expect(replayedHere.status).toBe(400);
  });

  test("a key revoked through one instance is refused by the other on the next request", async () => {
    const issued = await withKey(platformKey, "/v1/api_keys", {
      method: "POST",
      body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(issued.status, issued.body).toBe(201);
    const { id, secret } = issued.json() as { id: string; secret: string };
    // Both instances have used the key (anything an instance kept about it would be kept now).
    const used = await Promise.all(Array.from({ length: 6 }, () => withKey(secret, "/v1/api_keys")));
    expect(used.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(used.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
    const revoked = await withKey(platformKey, `/v1/api_keys/${id}`, { method: "DELETE" });
    expect(revoked.status, revoked.body).toBe(200);
    const next = await withKey(secret, "/v1/api_keys");
    expect(next.upstream).not.toBe(revoked.upstream);
    expect(next.status).toBe(401);
    const later = await Promise.all(Array.from({ length: 6 }, () => withKey(secret, "/v1/api_keys")));
    expect(later.map((answer) => answer.status)).toEqual(Array(6).fill(401));
    expect(new Set(later.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
  });

  test("a webhook attempt is sent once, though both instances run a delivery worker", async () => {
    const receiver = await startReceiver({ holdMs: 20 });
    try {
      const endpoint = await withKey(platformKey, "/v1/webhook_endpoints", {
        method: "POST",
        body: { url: receiver.url, events: ["webhook.test"] },
      });
      expect(endpoint.status, endpoint.body).toBe(201);
      const endpointId = endpoint.json().id as string;
      const sent: Reply[] = [];
      for (let i = 0; i < 30; i += 1)
        sent.push(await withKey(platformKey, `/v1/webhook_endpoints/${endpointId}/test`, { method: "POST", body: {} }));
      for (const answer of sent) expect(answer.status, answer.body).toBeLessThan(300);
      expect(new Set(sent.map((answer) => answer.upstream))).toEqual(new Set(["a", "b"]));
      const ids = sent.map((answer) => answer.json().id as string);
      const rows = () =>
        query<{ id: string; status: string; attempts: number }>(
          `SELECT id, status, attempts FROM "WebhookDelivery" WHERE id = ANY($1)`,
          [ids],
        );
      await expect
        .poll(async () => (await rows()).filter((row) => row.status === "delivered").length, { timeout: 60_000 })
        .toBe(30);
      // Time for a duplicate to show up, had one been sent.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const perEvent = new Map<string, number>();
      for (const request of receiver.received)
        perEvent.set(
          String(request.headers["webhook-id"]),
          (perEvent.get(String(request.headers["webhook-id"])) ?? 0) + 1,
        );
      expect(Object.fromEntries(perEvent)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
      expect((await rows()).map((row) => row.attempts)).toEqual(Array(30).fill(1));
    } finally {
      await receiver.close();
    }
  });

  test("SIGKILL of one instance mid-burst loses no acknowledged write; the proxy fails over and the other serves on", async () => {
    const [victimName, victim] = [...instances.entries()][1]!;
    const survivorName = victimName === "a" ? "b" : "a";
    const acknowledged: string[] = [];
    /** Writes that got no 201: only those already sent when the victim died, and only as the proxy's 502 or a cut answer. */
    const failed: { startedAt: number; what: string }[] = [];
    let sent = 0;
    let stop = false;
    const writer = async () => {
      while (!stop && sent < 3_000) {
        const externalId = `burst-${sent++}`;
        const startedAt = Date.now();
        try {
          const answer = await withKey(platformKey, "/v1/delegated_users", { method: "POST", body: { externalId } });
          if (answer.status === 201) acknowledged.push(externalId);
          else failed.push({ startedAt, what: `${answer.status} from ${answer.upstream}: ${answer.body}` });
        } catch (error) {
          failed.push({ startedAt, what: `cut: ${(error as Error).message}` });
        }
      }
    };
    const writers = Array.from({ length: 12 }, writer);
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(100);
    const killed = Date.now();
    await victim.kill(); // resolves once the process has exited
    const gone = Date.now();
    const atKill = acknowledged.length;
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(atKill + 100);
    stop = true;
    await Promise.all(writers);

    // Every write sent after the victim was gone was acknowledged (the proxy skipped the refused
    // upstream). Those that failed were sent to the victim before it was gone: in flight when it was
    // killed (at most one per writer), or sent while it was dying, when its port still took
    // connections that its exit then reset (a writer whose write was cut may send its next one then).
    expect(failed.filter((failure) => failure.startedAt >= gone)).toEqual([]);
    for (const failure of failed) expect(failure.what).toMatch(new RegExp(`^(502 from ${victimName}:|cut:)`));
    expect(failed.filter((failure) => failure.startedAt < killed).length).toBeLessThanOrEqual(12);

    // Every acknowledged write is in the database (read straight from it).
    const stored = new Set(
      (await query<{ externalId: string }>(`SELECT "externalId" FROM "DelegatedUser"`)).map((row) => row.externalId),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);

    // The survivor answers everything now, and its API lists every acknowledged write.
    const after = await Promise.all(Array.from({ length: 6 }, () => via("/healthz")));
    expect(after.map((answer) => `${answer.status} ${answer.upstream}`)).toEqual(Array(6).fill(`200 ${survivorName}`));
    const listed = new Set<string>();
    let next: string | null = null;
    do {
      const page = await withKey(platformKey, `/v1/delegated_users?limit=100${next ? `&next=${next}` : ""}`);
      expect(`${page.status} ${page.upstream}`, page.body).toBe(`200 ${survivorName}`);
      const { items, next: following } = page.json() as { items: { externalId: string }[]; next: string | null };
      items.forEach((item) => listed.add(item.externalId));
      next = following;
    } while (next);
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);
    expect([...listed].filter((id) => !stored.has(id))).toEqual([]);
  });
});
