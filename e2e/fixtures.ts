import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { test as base, expect, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { generateSync } from "otplib";
import type { Role } from "../lib/auth/permissions";

const root = path.resolve(__dirname, "..");

export type Server = {
  baseURL: string;
  dataDir: string;
  /** The server process's id (workers' lease owners name it). */
  pid: number;
  output: () => string;
  /** What it wrote to stdout alone (its log). */
  stdout: () => string;
  /** How the process ended, once it has. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
  kill: () => Promise<void>;
};

/**
 * Starts the production server (server.mjs, the one `npm start` runs, on the build the config's
 * webServer made) on a free port with a database of its own, so a spec can start from a fresh install.
 * Passwords are hashed at test cost (a real hash takes seconds on a slow machine; the server accepts
 * that setting only because it runs under Playwright); pass `PASSWORD_HASH_COST: ""` for the real cost.
 * The sandbox is on and the setup token is SETUP_TOKEN (OWNER carries it); pass `SETUP_TOKEN: ""` for
 * a server that generates its own and prints the setup link, as a real first start does.
 */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(path.join(os.tmpdir(), "pmc-e2e-server-")),
): Promise<Server> {
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dataDir, "app.db")}`,
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      PASSWORD_HASH_COST: "test",
      SANDBOX: "on",
      WEBHOOK_ALLOW_PRIVATE: "true",
      SETUP_TOKEN,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on http:\/\/\S*:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    dataDir,
    pid: child.pid!,
    output: () => output,
    stdout: () => stdout,
    exited,
    stop: () => signal("SIGTERM"),
    /** No goodbye: what a power cut or the OOM killer does to the process. */
    kill: () => signal("SIGKILL"),
  };
  function signal(name: NodeJS.Signals) {
    return new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(name);
    });
  }
}

/** Whether a process with this id still runs. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The setup token of the servers the tests start (playwright.config.ts makes one per run; also its webServer's). */
export const SETUP_TOKEN = process.env.E2E_SETUP_TOKEN || "e2e-setup-token-for-test-servers";

/** The first employee, as POST /v1/setup takes them (with the setup token of the servers startServer starts). */
export const OWNER = {
  setupToken: SETUP_TOKEN,
  accountName: "Acme Payments",
  name: "Casey Morgan",
  email: "casey@acme.example",
  password: "a long owner passphrase",
};

/** The setup link a server printed at start (when it generated its token), or null. */
export function printedSetupLink(server: Server): string | null {
  return /https?:\/\/\S+\/setup\?token=[A-Za-z0-9_%-]+/.exec(server.output())?.[0] ?? null;
}

/** A port free right now, for a server whose printed links must name its port (PORT=0 is only known after it listens). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
export type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: () => Record<string, unknown>;
};
export type Call = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: http.Agent | false;
  localAddress?: string;
};

/**
 * One request with node:http, for tests that choose the connection (`agent`: a keep-alive socket
 * stays with one server process; `false`: a new connection) or the client's address (`localAddress`,
 * e.g. 127.0.0.2: any 127/8 address reaches a server on 127.0.0.1). A JSON `body` is sent as such.
 * Rejects when the connection fails or closes before the answer is complete, or after 20 s without
 * one (a connection that dies with its server is never answered).
 */
export function httpRequest(url: string, init: Call = {}): Promise<Answer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: init.method ?? "GET",
        agent: init.agent,
        localAddress: init.localAddress,
        headers: {
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          ...init.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body,
            json: () => JSON.parse(body) as Record<string, unknown>,
          });
        });
        res.on("error", reject);
        res.on("close", () =>
          res.complete ? undefined : reject(new Error("the connection closed before the answer was complete")),
        );
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error("no answer within 20 s")));
    req.on("error", reject);
    req.end(payload);
  });
}

export type Received = { headers: http.IncomingHttpHeaders; body: string };

/**
 * A webhook receiver on 127.0.0.1 (on `port` when given: the same address again after it was down)
 * that records every request and answers 200 "received", `holdMs` after the body arrived. The
 * servers the tests start run with WEBHOOK_ALLOW_PRIVATE=true, so http to loopback is allowed.
 */
export async function startReceiver({ port = 0, holdMs = 0 }: { port?: number; holdMs?: number } = {}) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      setTimeout(() => res.end("received"), holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as net.AddressInfo).port;
  return {
    received,
    port: actual,
    url: `http://127.0.0.1:${actual}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const EMPLOYEE_PASSWORD = "a long employee passphrase";

/** A current TOTP code for `secret`, `steps` steps from now (the server accepts ±1 step, each step once). */
export const totpCode = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** How long a code handed out must stay acceptable, so a slow machine can still use it in time. */
const CODE_LIFETIME_MS = 15_000;

/**
 * Codes for consecutive TOTP-gated actions: each call returns a code of a later time step than the
 * last, waiting for the next step only when the window (now ±1 step) has none left. A code is only
 * handed out while it stays acceptable for CODE_LIFETIME_MS more (the server takes step s while its
 * clock is in steps s-1 to s+1).
 */
export function authenticatorFor(secret: string) {
  let lastStep = -1;
  return {
    secret,
    async next(): Promise<string> {
      for (;;) {
        const now = Math.floor(Date.now() / 1000 / 30);
        const stillValid = Math.floor((Date.now() + CODE_LIFETIME_MS) / 1000 / 30) - 1;
        const step = Math.max(lastStep + 1, stillValid);
        if (step <= now + 1) {
          lastStep = step;
          return generateSync({ secret, epoch: step * 30 + 1 });
        }
        await new Promise((resolve) => setTimeout(resolve, (now + 1) * 30_000 - Date.now() + 200));
      }
    },
    /** Marks the step of a code the test spent some other way (say, by typing it into the page). */
    spent(code: string) {
      const now = Math.floor(Date.now() / 1000 / 30);
      for (const step of [now - 1, now, now + 1])
        if (generateSync({ secret, epoch: step * 30 + 1 }) === code) lastStep = Math.max(lastStep, step);
    },
  };
}

/**
 * Enrols 2FA for whoever `request` is signed in as, through the API, with that employee's current
 * `password` (enrolment asks for it); returns the secret and recovery codes.
 */
export async function enrolTotp(request: APIRequestContext, baseURL: string, password: string) {
  const headers = { origin: baseURL };
  const started = await request.post(`${baseURL}/v1/employees/totp`, { headers, data: { password } });
  expect(started.status()).toBe(200);
  const { secret } = (await started.json()) as { secret: string };
  const authenticator = authenticatorFor(secret);
  const confirmed = await request.post(`${baseURL}/v1/employees/totp/confirm`, {
    headers,
    data: { code: await authenticator.next() },
  });
  expect(confirmed.status()).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  return { authenticator, recoveryCodes };
}

/**
 * What a phone's camera reads from the QR code on screen: the otpauth:// URI decoded from the pixels
 * (never from the page's text or the database).
 */
export async function scanQrCode(qr: Locator): Promise<URL> {
  const picture = PNG.sync.read(await qr.screenshot());
  const scanned = jsQR(new Uint8ClampedArray(picture.data), picture.width, picture.height);
  expect(scanned, "the QR code on screen decodes").not.toBeNull();
  return new URL(scanned!.data);
}

declare global {
  interface Window {
    /** Set in the page by watchCsp's page.exposeFunction. */
    __reportCspViolation?: (text: string) => void;
  }
}

/**
 * Records every CSP violation the page reports (the `securitypolicyviolation` event, in every frame,
 * from the first script on) and every console message about one.
 */
export async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__reportCspViolation?.(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.documentURI} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber}): ${event.sample}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|evaluate|connect|frame)/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** Saves a full-page screenshot as a test artifact (test-results/<test>/<name>.png). */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Clicks a dialog's copy button, sees it turn into "Copied", and expects the clipboard to hold `text`. */
export async function copyFromDialog(page: Page, dialog: Locator, copy: Locator, text: string) {
  await copy.click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
}

/** Saves `name` at the page's size, then `phoneName` at a phone's (390×844), and goes back to 1280×720. */
export async function snapAlsoOnPhone(page: Page, testInfo: TestInfo, name: string, phoneName: string) {
  await snap(page, testInfo, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, phoneName);
  await page.setViewportSize({ width: 1280, height: 720 });
}

type WorkerFixtures = { server: Server & { admin: APIRequestContext; inviter: APIRequestContext } };
type TestFixtures = { role: Role; employee: { name: string; email: string; password: string; id: string } };

/**
 * Gives an employee a role straight in the server's database. Through the API a role change needs
 * a fresh authenticator code (step-up), and codes come one per 30 s time step, which would make
 * every test wait; e2e/roles.spec.ts changes roles the way an owner does.
 */
export function setRole(server: Server, employeeId: string, role: Role) {
  const db = new Database(path.join(server.dataDir, "app.db"));
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare(`UPDATE "Employee" SET role = ? WHERE id = ?`).run(role, employeeId);
  } finally {
    db.close();
  }
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // One server per worker, set up once through the API; its owner's session (`admin`) prepares data.
  server: [
    async ({ playwright }, use) => {
      const server = await startServer();
      const admin = await playwright.request.newContext({
        baseURL: server.baseURL,
        extraHTTPHeaders: { origin: server.baseURL },
      });
      const setup = await admin.post("/v1/setup", { data: OWNER });
      expect(setup.status()).toBe(201);
      // Invitations need a code from a session, or a key that was given employees:write: the owner
      // enrols 2FA and issues such a key once, and every test's employee is invited with it.
      const { authenticator } = await enrolTotp(admin, server.baseURL, OWNER.password);
      const issued = await admin.post("/v1/api_keys", {
        headers: { "service-totp-code": await authenticator.next() },
        data: {
          name: "e2e inviter",
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          permissions: ["employees:read", "employees:write"],
        },
      });
      expect(issued.status()).toBe(201);
      const { secret } = (await issued.json()) as { secret: string };
      const inviter = await playwright.request.newContext({
        baseURL: server.baseURL,
        extraHTTPHeaders: { authorization: `Bearer ${secret}` },
      });
      await use({ ...server, admin, inviter });
      await inviter.dispose();
      await admin.dispose();
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  /** The role of the test's employee: `test.use({ role: "compliance" })` in a spec or describe block. */
  role: ["admin", { option: true }],
  // Every test gets a browser signed in as a new employee of the platform, without 2FA (automatic,
  // so a test that never names `employee` is signed in all the same).
  employee: [
    async ({ server, page, role }, use, testInfo) => {
      const suffix = `${testInfo.workerIndex}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
      const name = `Taylor Tester ${suffix}`;
      const email = `taylor.${suffix}@acme.example`;
      const invited = await server.inviter.post("/v1/employees", { data: { name, email } });
      expect(invited.status()).toBe(201);
      const { invitationUrl, id } = (await invited.json()) as { invitationUrl: string; id: string };
      const token = new URL(invitationUrl).searchParams.get("token")!;
      const accepted = await page.request.post(`${server.baseURL}/v1/employees/invitations/accept`, {
        data: { token, password: EMPLOYEE_PASSWORD },
      });
      expect(accepted.status()).toBe(200);
      // After accepting: a role change ends the invitation link (the employee's security stamp moves).
      setRole(server, id, role);
      await use({ name, email, password: EMPLOYEE_PASSWORD, id });
    },
    { auto: true },
  ],
  // No console errors or uncaught page errors in any test. Chromium's own network log of a 4xx
  // answer ("Failed to load resource") is not an app error: refusals are part of the journeys.
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
      problems.push(`console.error: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await use(page);
    expect(problems, "the page logged errors").toEqual([]);
  },
});

export { expect };
