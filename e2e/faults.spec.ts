import Database from "better-sqlite3";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { authenticatorFor, OWNER, startServer, type Server } from "./fixtures";

// Fault and concurrency checks against the production server: crashes lose nothing that was
// acknowledged, and races on codes, keys and unique ids resolve to exactly one winner.

type Caller = { baseURL: string; cookie: string };

async function setUp(server: Server): Promise<Caller> {
  const response = await fetch(`${server.baseURL}/v1/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(response.status).toBe(201);
  const cookie = response.headers.get("set-cookie")!.split(";")[0]!;
  return { baseURL: server.baseURL, cookie };
}

/** A request as the signed-in owner (cookie + same-origin Origin, as the dashboard sends). */
function asOwner(
  caller: Caller,
  pathname: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${caller.baseURL}${pathname}`, {
    method: init.method ?? "GET",
    headers: { cookie: caller.cookie, origin: caller.baseURL, "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/**
 * A separate platform with a working API key, through the sandbox; the key's rate limit is one the
 * bursts below never reach (the default, 100 a second, would refuse them).
 */
async function platformKey(caller: Caller): Promise<string> {
  const response = await asOwner(caller, "/v1/sandbox/platforms", {
    method: "POST",
    body: { accountName: `Tenant ${Date.now()}` },
  });
  expect(response.status).toBe(201);
  const { id, secret } = ((await response.json()) as { apiKey: { id: string; secret: string } }).apiKey;
  const unhurried = await withKey(caller, secret, `/v1/api_keys/${id}`, {
    method: "POST",
    body: { rateLimit: { requests: 100_000, perSeconds: 1 } },
  });
  expect(unhurried.status).toBe(200);
  return secret;
}

const withKey = (caller: Caller, key: string, pathname: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${caller.baseURL}${pathname}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** Runs `body` as the signed-in owner of a freshly set-up server, and stops the server after it. */
async function withFreshServer(body: (caller: Caller) => Promise<void>) {
  const server = await startServer();
  try {
    await body(await setUp(server));
  } finally {
    await server.stop();
  }
}

test.describe("faults and races", () => {
  test.setTimeout(180_000);

  test("SIGKILL during a burst of writes loses no acknowledged write and leaves an intact database", async () => {
    let server = await startServer();
    const caller = await setUp(server);
    const key = await platformKey(caller);
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const writer = async () => {
      while (!killed && sent < 2_000) {
        const externalId = `crash-${sent++}`;
        try {
          const response = await withKey(caller, key, "/v1/delegated_users", { method: "POST", body: { externalId } });
          if (response.status === 201) acknowledged.push(externalId);
          else expect(response.status, await response.text()).toBe(201);
        } catch {
          // The connection died with the server: that write was never acknowledged.
        }
      }
    };
    const writers = Array.from({ length: 16 }, writer);
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await server.kill();
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    server = await startServer({}, server.dataDir);
    try {
      const stored = new Set<string>();
      let next: string | null = null;
      do {
        const response = await withKey(
          { ...caller, baseURL: server.baseURL },
          key,
          `/v1/delegated_users?limit=100${next ? `&next=${next}` : ""}`,
        );
        expect(response.status).toBe(200);
        const page = (await response.json()) as { items: { externalId: string }[]; next: string | null };
        page.items.forEach((item) => stored.add(item.externalId));
        next = page.next;
      } while (next);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      await server.stop();
    }
    const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
  });

  test("twenty concurrent requests with the same Service-Totp-Code: exactly one succeeds", async () => {
    await withFreshServer(async (caller) => {
      const { secret } = (await (
        await asOwner(caller, "/v1/employees/totp", { method: "POST", body: { password: OWNER.password } })
      ).json()) as { secret: string };
      const authenticator = authenticatorFor(secret);
      expect(
        (
          await asOwner(caller, "/v1/employees/totp/confirm", {
            method: "POST",
            body: { code: await authenticator.next() },
          })
        ).status,
      ).toBe(200);
      const code = await authenticator.next();
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          asOwner(caller, "/v1/api_keys", {
            method: "POST",
            body: { expiresAt },
            headers: { "service-totp-code": code },
          }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(19);
    });
  });

  test("once a revoke has answered 200, no later request with that key succeeds", async () => {
    await withFreshServer(async (caller) => {
      const admin = await platformKey(caller);
      const issued = (await (
        await withKey(caller, admin, "/v1/api_keys", {
          method: "POST",
          body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
        })
      ).json()) as {
        id: string;
        secret: string;
      };
      // Eight callers hammer with the key until enough requests sent after the revoke have answered
      // (or a minute has passed): what is checked never depends on how fast this machine is.
      const WANTED_AFTER = 40;
      const outcomes: { sentAt: number; status: number }[] = [];
      let revokedAt = Infinity;
      const answeredAfterRevoke = () => outcomes.filter((outcome) => outcome.sentAt > revokedAt).length;
      const deadline = performance.now() + 60_000;
      const hammer = async () => {
        while (answeredAfterRevoke() < WANTED_AFTER && performance.now() < deadline) {
          const sentAt = performance.now();
          const response = await withKey(caller, issued.secret, "/v1/api_keys");
          outcomes.push({ sentAt, status: response.status });
        }
      };
      const hammers = Array.from({ length: 8 }, hammer);
      await expect
        .poll(() => outcomes.filter((outcome) => outcome.status === 200).length, { timeout: 60_000 })
        .toBeGreaterThanOrEqual(8);
      const revoke = await withKey(caller, admin, `/v1/api_keys/${issued.id}`, { method: "DELETE" });
      expect(revoke.status).toBe(200);
      revokedAt = performance.now();
      await Promise.all(hammers);
      const before = outcomes.filter((outcome) => outcome.sentAt < revokedAt);
      const after = outcomes.filter((outcome) => outcome.sentAt > revokedAt);
      expect(before.some((outcome) => outcome.status === 200)).toBe(true);
      expect(after.length).toBeGreaterThanOrEqual(WANTED_AFTER);
      expect(after.filter((outcome) => outcome.status !== 401)).toEqual([]);
    });
  });

  test("two concurrent creates with one externalId: one 201, one 409, never a 500; a write burst never hits 'database is locked'", async () => {
    await withFreshServer(async (caller) => {
      const key = await platformKey(caller);
      for (let round = 0; round < 20; round++) {
        const body = { externalId: `twin-${round}` };
        const pair = await Promise.all(
          [1, 2].map(() => withKey(caller, key, "/v1/delegated_users", { method: "POST", body }).then((r) => r.status)),
        );
        expect(pair.sort()).toEqual([201, 409]);
      }
      const burst = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          withKey(caller, key, "/v1/delegated_users", { method: "POST", body: { externalId: `burst-${i}` } }).then(
            async (r) => ({ status: r.status, text: await r.text() }),
          ),
        ),
      );
      expect(burst.filter((response) => response.status !== 201)).toEqual([]);
      expect(burst.some((response) => /locked/i.test(response.text))).toBe(false);
    });
  });
});
