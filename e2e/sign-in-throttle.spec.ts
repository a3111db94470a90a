import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { OWNER, startServer, type Server } from "./fixtures";

// Sign-in throttling against the real server (server.mjs), with requests truly in parallel: each
// attempt is counted before its password is checked, so a burst cannot slip past the limit, and the
// counts are per (e-mail, client) and per client, so a stranger cannot lock the employee out.
// TRUST_PROXY=1: the address before the TCP peer in X-Forwarded-For is the client, so one test
// process can speak from many addresses.

const LIMIT = 5; // Wrong passwords per (e-mail, client) in 15 minutes (lib/auth/throttle.ts, signInRules).
const SETUP_TOKEN = `throttle-${randomBytes(18).toString("base64url")}`;

let server: Server;

test.beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1", SETUP_TOKEN });
  const setup = await fetch(`${server.baseURL}/v1/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...OWNER, setupToken: SETUP_TOKEN }),
  });
  expect(setup.status).toBe(201);
});

test.afterAll(async () => {
  await server?.stop();
});

async function signIn(password: string, clientIp: string) {
  const response = await fetch(`${server.baseURL}/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": clientIp },
    body: JSON.stringify({ email: OWNER.email, password }),
  });
  const body = (await response.json()) as { error_code?: string; http_code?: number };
  return {
    status: response.status,
    body,
    retryAfter: response.headers.get("retry-after"),
    cookie: response.headers.get("set-cookie"),
  };
}

const tally = (results: Array<{ status: number }>) =>
  results.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );

test("30 wrong passwords at once from one client: at most the limit are answered 401, the rest 429; the right password from another client signs in", async () => {
  const attacker = "203.0.113.10";
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(`wrong guess ${i}`, attacker)));
  const counts = tally(results);
  expect(Object.keys(counts).sort()).toEqual(["401", "429"]);
  expect(counts[401]).toBeLessThanOrEqual(LIMIT);
  expect(counts[429]).toBeGreaterThanOrEqual(30 - LIMIT);
  for (const refused of results.filter((result) => result.status === 429)) {
    expect(refused.body).toMatchObject({ error_code: "err_rate_limited", http_code: 429 });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
  }
  // That client stays blocked, even with the right password...
  expect((await signIn(OWNER.password, attacker)).status).toBe(429);
  // ...while the employee, from their own address, signs in.
  const employee = await signIn(OWNER.password, "198.51.100.20");
  expect(employee.status).toBe(200);
  expect(employee.cookie).toContain("=");
});

test("a stranger spread over an IPv6 /64 is one client; the employee is not locked out by them", async () => {
  const addresses = Array.from(
    { length: 30 },
    (_, i) => `2001:db8:66:1:${randomBytes(2).toString("hex")}:${i.toString(16)}::1`,
  );
  const results = await Promise.all(addresses.map((address, i) => signIn(`stranger ${i}`, address)));
  const counts = tally(results);
  expect(counts[401]).toBeLessThanOrEqual(LIMIT);
  expect(counts[429]).toBeGreaterThanOrEqual(30 - LIMIT);
  // A neighbouring /64 is another client, and so is the employee's own IPv4 address.
  expect((await signIn(OWNER.password, "2001:db8:66:2::1")).status).toBe(200);
  expect((await signIn(OWNER.password, "198.51.100.21")).status).toBe(200);
  // The employee's own typos then count for them alone, and the right password still works.
  for (let i = 0; i < LIMIT - 1; i++) expect((await signIn(`typo ${i}`, "198.51.100.21")).status).toBe(401);
  expect((await signIn(OWNER.password, "198.51.100.21")).status).toBe(200);
});
