import { generateKeyPairSync } from "node:crypto";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  databaseFile,
  databaseProvider,
  decodeKey,
  env,
  EnvError,
  type Env,
  parseEnv,
  resetEnv,
  sandboxDefault,
  testRunner,
} from "@/lib/env";
import { POST as createSandboxRecipient } from "@/app/v1/sandbox/recipients/route";
import { thrownBy } from "@/lib/testing/errors";
import { platformWithKey } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";

const HEX_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/** The EnvError parseEnv throws for `source`. */
const envError = (source: Record<string, string | undefined>) => thrownBy(EnvError, () => parseEnv(source));

/** One test per [value, expected]: parseEnv reads `name`=value as expected. */
function readsEach<N extends keyof Env>(name: N, title: string, cases: [string, Env[N]][]) {
  it.each(cases)(title, (value, expected) => {
    expect(parseEnv({ [name]: value })[name]).toBe(expected);
  });
}

describe("parseEnv", () => {
  it("fills in every default", () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "::",
      DATABASE_URL: "file:./data/app.db",
      DATABASE_POOL_SIZE: 10,
      DATABASE_POOL_TIMEOUT_MS: 5000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
      DATABASE_LOCK_TIMEOUT_MS: 10_000,
      TRUST_PROXY: 0,
      SESSION_IDLE_MINUTES: 30,
      SESSION_MAX_HOURS: 12,
      COOKIE_SECURE: false,
      SANDBOX: "off",
      TOTP_ISSUER: "Platform Compliance",
      PASSWORD_HASH_COST: "production",
      WEBHOOK_ALLOW_PRIVATE: false,
      SSO_ALLOW_INSECURE_ISSUER: false,
      WEBHOOK_POLL_MS: 1000,
      WEB_CONCURRENCY: 1,
    });
  });

  it("reads set values and ignores unknown variables", () => {
    const parsed = parseEnv({
      NODE_ENV: "production",
      PORT: "8080",
      HOST: "127.0.0.1",
      DATABASE_URL: "file:/var/lib/pcs/app.db",
      TOTP_ENCRYPTION_KEY: HEX_KEY,
      APP_ORIGIN: "https://compliance.example.com",
      SANDBOX: "off",
      PATH: "/usr/bin",
    });
    expect(parsed).toMatchObject({
      NODE_ENV: "production",
      PORT: 8080,
      HOST: "127.0.0.1",
      DATABASE_URL: "file:/var/lib/pcs/app.db",
      TOTP_ENCRYPTION_KEY: HEX_KEY,
      APP_ORIGIN: "https://compliance.example.com",
      SANDBOX: "off",
    });
    expect(parsed).not.toHaveProperty("PATH");
  });

  it("accepts PORT=0: any free port", () => {
    expect(parseEnv({ PORT: "0" }).PORT).toBe(0);
  });

  it.each(["abc", "70000", "-1", "80.5"])("refuses PORT=%s and names PORT", (port) => {
    const error = envError({ PORT: port });
    expect(error.message).toMatch(/^\s+PORT: /m);
    expect(error.message).not.toMatch(/^\s+(?!PORT)\w+: /m);
  });

  readsEach("TRUST_PROXY", "reads TRUST_PROXY=%s as %i", [
    ["false", 0],
    ["true", 1],
    ["0", 0],
    ["2", 2],
    ["10", 10],
  ]);

  it.each(["bogus", "yes", "TRUE", "-1", "100", "1.5"])("refuses TRUST_PROXY=%s and names it", (value) => {
    expect(envError({ TRUST_PROXY: value }).message).toMatch(/^\s+TRUST_PROXY: /m);
  });

  it.each(["./data/app.db", "mysql://localhost/db", "postgresql:db", "file:", "sqlite:app.db"])(
    "refuses DATABASE_URL=%s and names it",
    (url) => {
      expect(envError({ DATABASE_URL: url }).message).toMatch(/^\s+DATABASE_URL: .*file:/m);
    },
  );

  it.each([
    ["too short hex", HEX_KEY.slice(0, 62)],
    ["16 bytes of base64", Buffer.alloc(16).toString("base64")],
    ["33 bytes of base64", Buffer.alloc(33).toString("base64")],
  ])("refuses a TOTP_ENCRYPTION_KEY of %s and names it", (_, key) => {
    expect(envError({ TOTP_ENCRYPTION_KEY: key }).message).toMatch(/^\s+TOTP_ENCRYPTION_KEY: /m);
  });

  readsEach("WEB_CONCURRENCY", "reads WEB_CONCURRENCY=%j as %i worker processes", [
    ["1", 1],
    ["2", 2],
    ["32", 32],
    ["", 1],
  ]);

  it.each(["0", "33", "1000", "-2", "1.5", "2x", " 2", "auto", "0x2", "1e1"])(
    "refuses WEB_CONCURRENCY=%j and names it with the range",
    (value) => {
      const message = envError({ WEB_CONCURRENCY: value }).message;
      expect(message).toMatch(/^\s+WEB_CONCURRENCY: must be a whole number from 1 to 32/m);
      expect(message).not.toMatch(/^\s+(?!WEB_CONCURRENCY)\w+: /m);
    },
  );

  readsEach("COOKIE_SECURE", "reads COOKIE_SECURE=%s as %s", [
    ["yes", true],
    ["on", true],
    ["1", true],
    ["off", false],
    ["no", false],
  ]);

  it("refuses an unknown boolean, NODE_ENV and APP_ORIGIN, naming each", () => {
    const message = envError({ COOKIE_SECURE: "maybe", NODE_ENV: "staging", APP_ORIGIN: "not a url" }).message;
    expect(message).toMatch(/^\s+COOKIE_SECURE: /m);
    expect(message).toMatch(/^\s+NODE_ENV: /m);
    expect(message).toMatch(/^\s+APP_ORIGIN: /m);
  });

  it("hashes passwords at production cost unless told otherwise", () => {
    expect(parseEnv({ NODE_ENV: "test" }).PASSWORD_HASH_COST).toBe("production");
    expect(parseEnv({ PASSWORD_HASH_COST: "production" }).PASSWORD_HASH_COST).toBe("production");
  });

  it.each([
    ["vitest", { VITEST: "true" }],
    ["playwright", { TEST_WORKER_INDEX: "0" }],
  ])("accepts PASSWORD_HASH_COST=test under %s", (runner, marker) => {
    expect(parseEnv({ PASSWORD_HASH_COST: "test", ...marker }).PASSWORD_HASH_COST).toBe("test");
    expect(testRunner(marker)).toBe(runner);
  });

  it.each([
    ["a production start", { NODE_ENV: "production" }],
    ["NODE_ENV=test alone", { NODE_ENV: "test" }],
    ["empty runner variables", { VITEST: "", TEST_WORKER_INDEX: "" }],
  ])("refuses PASSWORD_HASH_COST=test in %s, and says why", (_, source) => {
    const message = envError({ PASSWORD_HASH_COST: "test", ...source }).message;
    expect(message).toMatch(/^\s+PASSWORD_HASH_COST: test is refused: it is only for the test suite/m);
    expect(message).toMatch(/not running under vitest or Playwright/);
  });

  // Regression: SANDBOX defaulted to on, so a production start served the /v1/sandbox routes.
  it.each([
    ["a plain start", {}, "off"],
    ["NODE_ENV=production", { NODE_ENV: "production" }, "off"],
    ["NODE_ENV=test alone", { NODE_ENV: "test" }, "off"],
    ["empty runner variables", { VITEST: "", TEST_WORKER_INDEX: "", NODE_ENV: "" }, "off"],
    ["next dev (NODE_ENV=development)", { NODE_ENV: "development" }, "on"],
    ["vitest", { VITEST: "true" }, "on"],
    ["a server a Playwright test started", { TEST_WORKER_INDEX: "0", NODE_ENV: "production" }, "on"],
  ])("SANDBOX unset is %s → %s", (_, source: Record<string, string>, expected) => {
    expect(parseEnv(source).SANDBOX).toBe(expected);
    expect(sandboxDefault(source)).toBe(expected);
  });

  it("an explicit SANDBOX wins over the default", () => {
    expect(parseEnv({ SANDBOX: "on", NODE_ENV: "production" }).SANDBOX).toBe("on");
    expect(parseEnv({ SANDBOX: "off", NODE_ENV: "development", VITEST: "true" }).SANDBOX).toBe("off");
    expect(envError({ SANDBOX: "yes" }).message).toMatch(/^\s+SANDBOX: /m);
  });

  it("SSO_ALLOW_INSECURE_ISSUER is off unless set, and refuses anything but a boolean", () => {
    expect(parseEnv({ NODE_ENV: "production" }).SSO_ALLOW_INSECURE_ISSUER).toBe(false);
    expect(parseEnv({ SSO_ALLOW_INSECURE_ISSUER: "true" }).SSO_ALLOW_INSECURE_ISSUER).toBe(true);
    expect(envError({ SSO_ALLOW_INSECURE_ISSUER: "maybe" }).message).toMatch(/^\s+SSO_ALLOW_INSECURE_ISSUER: /m);
  });

  it("WEBHOOK_ALLOW_PRIVATE is off unless set, and refuses anything but a boolean", () => {
    expect(parseEnv({ NODE_ENV: "production" }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE: "true" }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE: "false" }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(envError({ WEBHOOK_ALLOW_PRIVATE: "sometimes" }).message).toMatch(/^\s+WEBHOOK_ALLOW_PRIVATE: /m);
  });

  it("reads SECRET_SCANNING_PUBLIC_KEYS as GitHub's JSON or PEM blocks; refuses anything else, naming it", () => {
    const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" });
    const ed25519 = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" });
    expect(parseEnv({}).SECRET_SCANNING_PUBLIC_KEYS).toBeUndefined();
    const json = JSON.stringify({ public_keys: [{ key_identifier: "abc", key: p256, is_current: true }] });
    expect(
      parseEnv({ SECRET_SCANNING_PUBLIC_KEYS: json }).SECRET_SCANNING_PUBLIC_KEYS?.map((key) => key.identifier),
    ).toEqual(["abc"]);
    const oneLine = `${p256}${p256}`.replace(/\n/g, "\\n");
    expect(parseEnv({ SECRET_SCANNING_PUBLIC_KEYS: oneLine }).SECRET_SCANNING_PUBLIC_KEYS).toHaveLength(2);
    for (const bad of [
      "not a key",
      "{}",
      '{"public_keys":[{"key":"x"}]}',
      String(ed25519),
      "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
    ])
      expect(envError({ SECRET_SCANNING_PUBLIC_KEYS: bad }).message).toMatch(/^\s+SECRET_SCANNING_PUBLIC_KEYS: /m);
  });

  it("reads SETUP_TOKEN and refuses a short or spaced one, naming it", () => {
    expect(parseEnv({}).SETUP_TOKEN).toBeUndefined();
    expect(parseEnv({ SETUP_TOKEN: "0123456789abcdef" }).SETUP_TOKEN).toBe("0123456789abcdef");
    expect(envError({ SETUP_TOKEN: "0123456789abcde" }).message).toMatch(
      /^\s+SETUP_TOKEN: must be at least 16 characters/m,
    );
    expect(envError({ SETUP_TOKEN: "with a space in the middle" }).message).toMatch(/^\s+SETUP_TOKEN: /m);
    expect(envError({ SETUP_TOKEN: "x".repeat(257) }).message).toMatch(/^\s+SETUP_TOKEN: /m);
  });

  it("reads SMTP_URL with MAIL_FROM; refuses a URL that is not SMTP, and SMTP_URL without MAIL_FROM, never echoing the URL", () => {
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
    const smtp = "smtp://user:hunter2@mail.example.com:587";
    expect(parseEnv({ SMTP_URL: smtp, MAIL_FROM: "Compliance <no-reply@example.com>" })).toMatchObject({
      SMTP_URL: smtp,
      MAIL_FROM: "Compliance <no-reply@example.com>",
    });
    const wrong = envError({ SMTP_URL: "https://user:hunter2@mail.example.com", MAIL_FROM: "a@example.com" }).message;
    expect(wrong).toMatch(/^\s+SMTP_URL: must be an SMTP URL/m);
    const noSender = envError({ SMTP_URL: smtp }).message;
    expect(noSender).toMatch(/^\s+MAIL_FROM: is required with SMTP_URL/m);
    for (const message of [wrong, noSender]) expect(message).not.toContain("hunter2");
  });

  it("takes SLA_SWEEP_INTERVAL_MS only under a test runner", () => {
    expect(parseEnv({}).SLA_SWEEP_INTERVAL_MS).toBeUndefined();
    expect(parseEnv({ SLA_SWEEP_INTERVAL_MS: "200", VITEST: "true" }).SLA_SWEEP_INTERVAL_MS).toBe(200);
    expect(parseEnv({ SLA_SWEEP_INTERVAL_MS: "200", TEST_WORKER_INDEX: "0" }).SLA_SWEEP_INTERVAL_MS).toBe(200);
    for (const source of [{ NODE_ENV: "production" }, { NODE_ENV: "test" }, { VITEST: "" }]) {
      expect(envError({ SLA_SWEEP_INTERVAL_MS: "200", ...source }).message).toMatch(
        /^\s+SLA_SWEEP_INTERVAL_MS: is refused: it is only for the test suite/m,
      );
    }
    expect(envError({ SLA_SWEEP_INTERVAL_MS: "0", VITEST: "true" }).message).toMatch(/^\s+SLA_SWEEP_INTERVAL_MS: /m);
  });

  it("refuses an unknown PASSWORD_HASH_COST and names it", () => {
    expect(envError({ PASSWORD_HASH_COST: "cheap", VITEST: "true" }).message).toMatch(/^\s+PASSWORD_HASH_COST: /m);
  });

  it("lists every invalid variable in one error", () => {
    const message = envError({ PORT: "abc", DATABASE_URL: "app.db", TRUST_PROXY: "bogus" }).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message.match(/^\s+\w+: /gm)).toHaveLength(3);
  });

  it("treats empty strings as unset", () => {
    const names = [
      "PORT",
      "DATABASE_URL",
      "TRUST_PROXY",
      "TOTP_ENCRYPTION_KEY",
      "APP_ORIGIN",
      "COOKIE_SECURE",
      "NODE_ENV",
      "TOTP_ISSUER",
      "PASSWORD_HASH_COST",
      "SANDBOX",
      "SETUP_TOKEN",
    ];
    const parsed = parseEnv(Object.fromEntries(names.map((name) => [name, ""])));
    expect(parsed).toEqual(parseEnv({}));
  });
});

describe("decodeKey", () => {
  it("decodes 64 hex characters in either case", () => {
    expect(decodeKey(HEX_KEY)?.toString("hex")).toBe(HEX_KEY);
    expect(decodeKey(HEX_KEY.toUpperCase())?.toString("hex")).toBe(HEX_KEY);
  });

  it("decodes 32 bytes of base64", () => {
    const raw = Buffer.from(HEX_KEY, "hex");
    expect(decodeKey(raw.toString("base64"))?.equals(raw)).toBe(true);
  });

  it("returns null for anything that is not 32 bytes", () => {
    expect(decodeKey("")).toBeNull();
    expect(decodeKey(HEX_KEY + "00")).toBeNull();
    expect(decodeKey(Buffer.alloc(31).toString("base64"))).toBeNull();
  });
});

describe("databaseProvider", () => {
  it("accepts PostgreSQL URLs and tells them from SQLite files", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://pcs:secret@db:5432/pcs" }).DATABASE_URL).toBe(
      "postgresql://pcs:secret@db:5432/pcs",
    );
    expect(databaseProvider("postgresql://db/pcs")).toBe("postgresql");
    expect(databaseProvider("postgres://db/pcs")).toBe("postgresql");
    expect(databaseProvider("file:./data/app.db")).toBe("sqlite");
  });
});

describe("databaseFile", () => {
  it("resolves a relative file: URL against the working directory", () => {
    expect(databaseFile("file:./data/app.db")).toBe(path.resolve(process.cwd(), "data/app.db"));
  });

  it("keeps an absolute path and drops query parameters", () => {
    expect(databaseFile("file:/var/lib/pcs/app.db?mode=rwc")).toBe("/var/lib/pcs/app.db");
  });
});

describe("env", () => {
  const originalPort = process.env.PORT;
  afterEach(() => {
    if (originalPort === undefined) delete process.env.PORT;
    else process.env.PORT = originalPort;
    resetEnv();
  });

  it("caches the configuration until resetEnv()", () => {
    process.env.PORT = "4001";
    resetEnv();
    expect(env().PORT).toBe(4001);
    process.env.PORT = "4002";
    expect(env().PORT).toBe(4001);
    resetEnv();
    expect(env().PORT).toBe(4002);
  });

  it("throws EnvError for an invalid process environment", () => {
    process.env.PORT = "abc";
    resetEnv();
    expect(() => env()).toThrow(EnvError);
  });
});

describe("SANDBOX in a running service", () => {
  const saved = { VITEST: process.env.VITEST, PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    delete process.env.SANDBOX;
    resetEnv();
  });

  it("a sandbox route answers 404 when SANDBOX is unset outside the test runner, 201 once turned on", async () => {
    const { apiKey } = await platformWithKey();
    // This process as a production start sees it: no test runner marker (and so no test-cost hashing).
    delete process.env.VITEST;
    delete process.env.PASSWORD_HASH_COST;
    delete process.env.SANDBOX;
    resetEnv();
    const refused = await call(createSandboxRecipient, { method: "POST", apiKey, body: { name: "Grace" } });
    expectError(refused, 404, "err_not_found");
    process.env.SANDBOX = "on";
    resetEnv();
    expect((await call(createSandboxRecipient, { method: "POST", apiKey, body: { name: "Grace" } })).status).toBe(201);
  });
});
