import { existsSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { setupTokenFile } from "@/lib/employees/setup";
import { startUp } from "@/lib/startup";
import { call, expectError, sessionFrom } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { POST } from "./route";

const valid = {
  accountName: "Acme Payments",
  name: "Ada Lovelace",
  email: "Ada@Example.com",
  password: "a long enough password",
};

/** What the server prints at start (lib/startup.ts): the log lines, and the setup link's token if one was printed. */
async function startUpLog() {
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  try {
    await startUp();
  } finally {
    log.mockRestore();
  }
  const text = lines.join("\n");
  const link = /https?:\/\/\S+\/setup\?token=(\S+)/.exec(text);
  return { text, link: link?.[0], token: link ? decodeURIComponent(link[1]!) : undefined };
}

unsetEnvAfterEach("SETUP_TOKEN");

// Setup works once per database, so the cases run in order: refusals first, then the one success.
// SETUP_TOKEN is unset (lib/testing/setup.ts): the token is the one generated at start and printed.
describe("POST /v1/setup", () => {
  it("start-up prints a setup link with a generated, url-safe token while nobody exists, kept owner-only in the data directory", async () => {
    const first = await startUpLog();
    expect(first.text).toMatch(/First-run setup/);
    expect(first.link).toMatch(/^http:\/\/localhost:3000\/setup\?token=[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(setupTokenFile(), "utf8").trim()).toBe(first.token);
    expect(statSync(setupTokenFile()).mode & 0o777).toBe(0o600);
    // The same token for every request and every later start until setup is done.
    expect((await startUpLog()).token).toBe(first.token);
  });

  it("the link uses APP_ORIGIN when it is set", async () => {
    process.env.APP_ORIGIN = "https://compliance.example.com";
    resetEnv();
    try {
      expect((await startUpLog()).link).toMatch(/^https:\/\/compliance\.example\.com\/setup\?token=[A-Za-z0-9_-]{43}$/);
    } finally {
      delete process.env.APP_ORIGIN;
    }
  });

  it("422 names each invalid field, the setup token among them when it is missing", async () => {
    const response = await call(POST, { method: "POST", body: { ...valid, email: "not-an-email", password: "short" } });
    expectError(response, 422, "err_validation");
    expect(response.body.http_code).toBe(422);
    expect(Object.keys(response.body.details ?? {}).sort()).toEqual(["email", "password", "setupToken"]);
    const blank = await call(POST, { method: "POST", body: { ...valid, setupToken: "  " } });
    expect(blank.status).toBe(422);
    expect(blank.body.details).toEqual({ setupToken: "is required" });
    expect(await db().employee.count()).toBe(0);
  });

  it("422 for a common password (any case) or one past 256 characters, naming why; nobody is created", async () => {
    const { token: setupToken } = await startUpLog();
    for (const password of ["password1234", "PassWord1234"]) {
      const response = await call(POST, { method: "POST", body: { ...valid, setupToken, password } });
      expectError(response, 422, "err_validation");
      expect(response.body.details).toEqual({
        password: "is one of the 100,000 most common passwords; choose another",
      });
    }
    const long = await call(POST, { method: "POST", body: { ...valid, setupToken, password: "x".repeat(257) } });
    expect(long.body.details).toEqual({ password: "must be at most 256 characters" });
    expect(await db().employee.count()).toBe(0);
  });

  it("403 for a wrong setup token, saying nothing but that", async () => {
    const { token } = await startUpLog();
    for (const wrong of ["wrong", token!.slice(0, -1), `${token}x`, token!.toUpperCase(), "a".repeat(256)]) {
      const response = await call(POST, { method: "POST", body: { ...valid, setupToken: wrong } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error_code: "err_forbidden",
        http_code: 403,
        message: expect.stringMatching(/setup token is wrong/),
        details: { setupToken: "is wrong" },
        request_id: response.headers.get("x-request-id"),
      });
      expect(JSON.stringify(response.body)).not.toContain(token);
    }
    expect(await db().employee.count()).toBe(0);
    // Nothing about the token reaches the audit trail.
    const audited = JSON.stringify(await db().auditEvent.findMany());
    expect(audited).not.toContain(token);
  });

  it("403 with SETUP_TOKEN set for anything but it, the generated token included", async () => {
    const generated = (await startUpLog()).token!;
    process.env.SETUP_TOKEN = "an-operators-own-setup-token";
    resetEnv();
    const refused = await call(POST, { method: "POST", body: { ...valid, setupToken: generated } });
    expect(refused.status).toBe(403);
    // A configured token is never printed.
    const { text, token } = await startUpLog();
    expect(token).toBeUndefined();
    expect(text).toContain("http://localhost:3000/setup");
    expect(text).not.toContain("an-operators-own-setup-token");
  });

  // Regression: the limit counted characters, so 400k "€" (1.2 MB of UTF-8) passed a 1 MiB check.

  it("403 for a cross-site browser request, even with the right token", async () => {
    const { token } = await startUpLog();
    const response = await call(POST, {
      method: "POST",
      body: { ...valid, setupToken: token },
      headers: { origin: "https://evil.example" },
    });
    expectError(response, 403, "err_forbidden");
    expect(await db().employee.count()).toBe(0);
  });

  it("201 with the printed token creates the platform and its first employee and signs them in", async () => {
    const { token } = await startUpLog();
    const response = await call(POST, { method: "POST", body: { ...valid, setupToken: token } });
    expect(response.status).toBe(201);
    expect(response.body.employee).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      status: "active",
      twoFactorEnabled: false,
    });
    expect(response.body.account).toMatchObject({ name: "Acme Payments", parentId: null, featureFlags: {} });
    expect(response.body.employee).not.toHaveProperty("passwordHash");
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(sessionFrom(response.headers)).toHaveLength(43);
    const account = await db().account.findUniqueOrThrow({ where: { id: response.body.account.id } });
    expect(account.platformId).toBe(account.id);
    // The token is gone with setup done, and kept out of the audit record.
    expect(existsSync(setupTokenFile())).toBe(false);
    const record = await db().auditEvent.findFirstOrThrow({ where: { action: "platform.setup", status: 201 } });
    expect(JSON.stringify(record)).not.toContain(token);
    // Later starts print no token and no link.
    const later = await startUpLog();
    expect(later.text).not.toMatch(/setup/i);
    expect(existsSync(setupTokenFile())).toBe(false);
  });

  it("409 once anyone exists, whatever the token", async () => {
    for (const setupToken of ["wrong", "a token that was never printed"]) {
      const response = await call(POST, {
        method: "POST",
        body: { ...valid, setupToken, email: "someone@example.com" },
      });
      expectError(response, 409, "err_conflict");
    }
    process.env.SETUP_TOKEN = "an-operators-own-setup-token";
    resetEnv();
    const configured = await call(POST, {
      method: "POST",
      body: { ...valid, setupToken: "an-operators-own-setup-token", email: "someone@example.com" },
    });
    expect(configured.status).toBe(409);
    expect(await db().employee.count()).toBe(1);
  });
});
