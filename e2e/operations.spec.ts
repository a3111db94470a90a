import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import net from "node:net";
import { expect, test } from "@playwright/test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { alive, authenticatorFor, httpRequest, OWNER, startServer, type Server } from "./fixtures";

// The server as an operations team runs it: real processes, real signals, its real log and metrics.

/** Sends the first part of a request body now and the rest on `finish()`: a request in flight until then. */
function slowRequest(server: Server, body: string) {
  const { port } = new URL(server.baseURL);
  let finish: () => void = () => {};
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/sessions",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    finish = () => req.end(body.slice(10));
  });
  return { answered, finish: () => finish() };
}

/** Whether anything accepts connections on `port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(Boolean(socket.destroy())));
    socket.once("error", () => resolve(false));
  });

/** The lines of `text`, each parsed as JSON (a line that is not JSON fails the test, naming it). */
function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a log line is not JSON: ${line}`);
      }
    });
}

test("SIGTERM mid-request: readiness goes 503, the request completes, the process exits 0 and nothing listens", async () => {
  const server = await startServer({ LOG_FORMAT: "json", SHUTDOWN_DELAY_MS: "1500" });
  const port = Number(new URL(server.baseURL).port);
  expect((await httpRequest(`${server.baseURL}/readyz`)).json()).toEqual({
    status: "ready",
    checks: { database: "ok" },
  });
  const inFlight = slowRequest(server, JSON.stringify({ email: "nobody@example.com", password: "not the password" }));
  // The connection is accepted during SHUTDOWN_DELAY_MS at the latest, while the server still serves.
  process.kill(server.pid, "SIGTERM");
  // During SHUTDOWN_DELAY_MS it still serves, and says it is not ready.
  await expect.poll(async () => (await httpRequest(`${server.baseURL}/readyz`)).status).toBe(503);
  expect((await httpRequest(`${server.baseURL}/readyz`)).json()).toEqual({ status: "draining" });
  expect((await httpRequest(`${server.baseURL}/healthz`)).json()).toEqual({ status: "ok" });
  inFlight.finish();
  expect((await inFlight.answered).status).toBe(401);
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(await listening(port)).toBe(false);
  const lines = jsonLines(server.stdout());
  expect(lines.some((line) => line.route === "/v1/sessions" && line.status === 401)).toBe(true);
  expect(lines.at(-1)).toMatchObject({ msg: "Stopped", exitCode: 0 });
});

test("a port already in use: the second server exits 1 within 10 s with one line naming the cause", async () => {
  const first = await startServer();
  try {
    const started = Date.now();
    const second = startServer({ PORT: new URL(first.baseURL).port, LOG_FORMAT: "json" });
    await expect(second).rejects.toThrow(/server exited with 1/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const output = await second.catch((error: Error) => error.message);
    const fatal = jsonLines(String(output).split("\n").slice(1).join("\n")).filter((line) => line.level === "fatal");
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toMatch(/Cannot listen on 127\.0\.0\.1 port \d+: the port is already in use \(EADDRINUSE\)/);
  } finally {
    await first.stop();
  }
});

test("npm start passes SIGTERM to the server: no process is left behind and nothing listens", async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pmc-e2e-npm-start-"));
  const child = spawn("npm", ["start"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dataDir, "app.db")}`,
      DATA_DIR: dataDir,
      LOG_FORMAT: "json",
      SANDBOX: "on",
      PASSWORD_HASH_COST: "test",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await expect
    .poll(() => /"msg":"Listening on http:\/\/127\.0\.0\.1:\d+"/.test(output), { timeout: 120_000 })
    .toBe(true);
  // npm prints its own banner first ("> platform-compliance-service@... start"); the server's lines follow.
  const serverLines = output.split("\n").filter((line) => line.startsWith("{"));
  const listened = jsonLines(serverLines.join("\n")).find((line) => String(line.msg).startsWith("Listening on"))!;
  const serverPid = Number(listened.pid);
  expect(serverPid).not.toBe(child.pid);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  await expect.poll(() => alive(serverPid)).toBe(false);
  expect(await listening(Number(listened.port))).toBe(false);
});

test("JSON logs: every stdout line parses, one access line per request, and no secret of a sign-in, enrolment or key issue appears", async () => {
  const server = await startServer({ LOG_FORMAT: "json", LOG_LEVEL: "debug" });
  try {
    const secrets = await signInEnrolAndIssueKey(server);
    await httpRequest(`${server.baseURL}/healthz`);
    await httpRequest(`${server.baseURL}/v1/transfers/tr_doesnotexist000000000000`, {
      headers: { authorization: `Bearer ${secrets.key}` },
    });
    await server.stop();
    const lines = jsonLines(server.stdout());
    for (const line of lines) {
      expect(typeof line.time === "string" && !Number.isNaN(Date.parse(line.time)), JSON.stringify(line)).toBe(true);
      expect(["debug", "info", "warn", "error", "fatal"]).toContain(line.level);
      expect(typeof line.msg).toBe("string");
    }
    const access = lines.filter((line) => line.msg === "request");
    expect(access.map((line) => `${line.method} ${line.route} ${line.status}`)).toEqual([
      "POST /v1/setup 201",
      "POST /v1/employees/totp 200",
      "POST /v1/employees/totp/confirm 200",
      "POST /v1/sessions 200",
      "POST /v1/api_keys 201",
      "GET /v1/transfers/{id} 404",
    ]);
    for (const line of access) {
      expect(line.requestId).toMatch(/^req_[0-9a-f]{24}$/);
      expect(typeof line.durationMs).toBe("number");
    }
    expect(access.at(-1)!.actor).toMatch(/^key_/);
    expect(access.at(-2)!.actor).toMatch(/^emp_/);
    const log = server.stdout();
    for (const [name, secret] of Object.entries(secrets))
      expect(log, `the ${name} is in the log`).not.toContain(secret);
  } finally {
    await server.stop();
  }
});

/** Setup, 2FA enrolment, a sign-in with a code and a key issued with a step-up code: every secret they involve. */
async function signInEnrolAndIssueKey(server: Server) {
  const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    httpRequest(`${server.baseURL}${path}`, { method: "POST", body, headers: { origin: server.baseURL, ...headers } });
  const setup = await call("/v1/setup", OWNER);
  expect(setup.status, setup.body).toBe(201);
  const firstCookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
  const started = await call("/v1/employees/totp", { password: OWNER.password }, { cookie: firstCookie });
  expect(started.status, started.body).toBe(200);
  const authenticator = authenticatorFor(started.json().secret as string);
  const enrolCode = await authenticator.next();
  const confirmed = await call("/v1/employees/totp/confirm", { code: enrolCode }, { cookie: firstCookie });
  expect(confirmed.status, confirmed.body).toBe(200);
  const signInCode = await authenticator.next();
  const signedIn = await call("/v1/sessions", { email: OWNER.email, password: OWNER.password, totpCode: signInCode });
  expect(signedIn.status, signedIn.body).toBe(200);
  const cookie = signedIn.headers["set-cookie"]![0]!.split(";")[0]!;
  const stepUp = await authenticator.next();
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  const issued = await call("/v1/api_keys", { name: "log check", expiresAt }, { cookie, "service-totp-code": stepUp });
  expect(issued.status, issued.body).toBe(201);
  return {
    password: OWNER.password,
    "setup token": OWNER.setupToken,
    "TOTP secret": started.json().secret as string,
    "enrolment code": enrolCode,
    "sign-in code": signInCode,
    "step-up code": stepUp,
    "session cookie": cookie.split("=")[1]!,
    "recovery code": (confirmed.json().recoveryCodes as string[])[0]!,
    key: issued.json().secret as string,
  };
}

test("/metrics on its own port: Prometheus text that parses, counting requests by route template", async () => {
  const server = await startServer({ METRICS_PORT: "0", LOG_FORMAT: "json" });
  try {
    const metricsUrl = /"msg":"Metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)"/.exec(server.stdout())![1]!;
    for (let i = 0; i < 3; i += 1) await httpRequest(`${server.baseURL}/v1/transfers/tr_x`);
    await httpRequest(`${server.baseURL}/v1/no/such/route/${Date.now()}`);
    const scraped = await httpRequest(metricsUrl);
    expect(scraped.status).toBe(200);
    expect(scraped.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(scraped.body);
    const family = (name: string) => families.find((entry) => entry.name === name);
    const requests = family("http_requests_total")!.metrics as { labels: Record<string, string>; value: string }[];
    expect(requests).toContainEqual({
      labels: { method: "GET", route: "/v1/transfers/{id}", status: "401" },
      value: "3",
    });
    // Raw paths never become labels: the unknown one counts under its catch-all template.
    expect(requests.every((metric) => !/\d{6}/.test(metric.labels.route!))).toBe(true);
    expect(family("http_request_duration_seconds")!.type).toBe("HISTOGRAM");
    for (const name of [
      "webhook_deliveries_pending",
      "webhook_deliveries_failed_total",
      "webhook_oldest_pending_age_seconds",
      "audit_events_unsealed",
      "audit_seal_lag_seconds",
      "database_busy_total",
      "api_key_rate_limited_total",
      "process_cpu_seconds_total",
      "nodejs_heap_size_used_bytes",
    ])
      expect(family(name), name).toBeDefined();
    // Health probes are not counted; the service's port does not serve /metrics.
    expect(requests.some((metric) => metric.labels.route === "/healthz")).toBe(false);
    expect((await httpRequest(`${server.baseURL}/metrics`)).status).toBe(404);
  } finally {
    await server.stop();
  }
});

test("a variable one edit from a known one is named at start, without its value", async () => {
  const server = await startServer({ APP_ORGIN: "https://typo-value.example", LOG_FORMAT: "json" });
  try {
    const warning = jsonLines(server.stdout()).find((line) => String(line.msg).includes("APP_ORGIN"));
    expect(warning).toMatchObject({ level: "warn" });
    expect(warning!.msg).toContain("did you mean APP_ORIGIN?");
    expect(server.stdout()).not.toContain("typo-value.example");
  } finally {
    await server.stop();
  }
});

test("under WEB_CONCURRENCY the primary serves the workers' metrics added up", async () => {
  const server = await startServer({ WEB_CONCURRENCY: "2", METRICS_PORT: "0", LOG_FORMAT: "json" });
  try {
    const metricsUrl = /"msg":"Metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)"/.exec(server.stdout())![1]!;
    for (let i = 0; i < 6; i += 1) await httpRequest(`${server.baseURL}/v1/transfers/tr_x`, { agent: false });
    const families = parsePrometheusTextFormat((await httpRequest(metricsUrl)).body);
    const requests = families.find((entry) => entry.name === "http_requests_total")!.metrics;
    expect(requests).toContainEqual({
      labels: { method: "GET", route: "/v1/transfers/{id}", status: "401" },
      value: "6",
    });
    // New connections go to the workers in turn: the six counted are both workers' together.
    expect(families.find((entry) => entry.name === "webhook_deliveries_pending")).toBeDefined();
  } finally {
    await server.stop();
  }
});
