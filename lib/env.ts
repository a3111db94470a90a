import { createPrivateKey } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { parseScanningKeys } from "@/lib/api-keys/secret-scanning-keys";
import { parseWebConcurrency } from "@/lib/web-concurrency.mjs";

// Every setting the service reads, validated once. A bad value stops start-up with a message that
// names the variable (see instrumentation.ts), instead of failing later on some request.
const boolean = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((value) => ["true", "1", "yes", "on"].includes(value));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** 0 takes any free port (the server prints the one it got). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("::"),
  DATABASE_URL: z
    .string()
    .regex(
      /^(file:.+|postgres(ql)?:\/\/.+)/,
      "must be a SQLite file URL such as file:./data/app.db or a PostgreSQL URL such as postgresql://user:password@host:5432/db",
    )
    .default("file:./data/app.db"),
  /**
   * PostgreSQL: connections each process keeps to the database. Every request holds one for its
   * transaction only (a few milliseconds), so a handful serves many concurrent requests; keep
   * instances x processes x this under the server's max_connections (docs/operations.md, Running on
   * PostgreSQL).
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** PostgreSQL: how long a request waits for a free connection before it answers 503 with Retry-After. */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(5_000),
  /** PostgreSQL: the longest one statement may run (statement_timeout); past it the request answers 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  /** PostgreSQL: the longest a statement waits for a row another transaction holds (lock_timeout); past it, 503. */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  /**
   * Where the generated TOTP encryption key and setup token are kept. Default: the SQLite file's
   * directory, or ./data with PostgreSQL.
   */
  DATA_DIR: z.string().min(1).optional(),
  /** How many reverse proxies in front of the service to trust in X-Forwarded-For; false = none. */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, "must be false, true (one proxy) or the number of trusted proxies")
    .default("false")
    .transform((value) => (value === "true" ? 1 : value === "false" ? 0 : Number(value))),
  /**
   * The 32-byte key (base64 or hex) that encrypts every secret at rest (lib/auth/encryption.ts); unset, the
   * key file in the data directory, generated there only while nothing encrypted exists.
   */
  ENCRYPTION_KEY: z
    .string()
    .refine((value) => decodeKey(value) !== null, "must be 32 bytes, as 64 hex characters or base64")
    .optional(),
  /** The earlier name of ENCRYPTION_KEY, still accepted (setting both to different keys is refused). */
  TOTP_ENCRYPTION_KEY: z
    .string()
    .refine((value) => decodeKey(value) !== null, "must be 32 bytes, as 64 hex characters or base64")
    .optional(),
  /**
   * Earlier encryption keys, comma-separated, for reading what they encrypted while `npm run
   * keys:reencrypt` rewrites it under ENCRYPTION_KEY.
   */
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .transform((value) => value.split(",").map((key) => key.trim()))
    .refine(
      (keys) => keys.every((key) => decodeKey(key) !== null),
      "must be 32-byte keys (64 hex characters or base64), separated by commas",
    )
    .optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(12),
  /** Set the Secure flag on the session cookie; turn on whenever the service is reached over HTTPS. */
  COOKIE_SECURE: boolean.default(false),
  /** The dashboard's public origin, e.g. https://compliance.example.com; same-origin checks accept it. */
  APP_ORIGIN: z.url().optional(),
  /**
   * The /v1/sandbox routes. Unset: off, except under `next dev` (NODE_ENV=development set explicitly)
   * and in processes the test runner started (see sandboxDefault).
   */
  SANDBOX: z.enum(["on", "off"]).optional(),
  /**
   * The token first-run setup (POST /v1/setup) needs. Unset: one is generated at start into the data
   * directory and printed to the log with a setup link while no employee exists.
   */
  SETUP_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters (generate one with: openssl rand -base64 24)")
    .max(256, "must be at most 256 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional(),
  TOTP_ISSUER: z.string().min(1).max(64).default("Platform Compliance"),
  /**
   * Let webhook endpoints point at private, loopback, link-local and CGNAT addresses, and use http
   * to loopback (lib/webhooks/url-guard.ts). For tests and local development only: in production a
   * tenant could otherwise make the service call into its own network.
   */
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  /**
   * Let the single sign-on issuer be an `http` URL on a loopback address (lib/sso/issuer.ts). For tests
   * and local development only: in production the issuer must be https.
   */
  SSO_ALLOW_INSECURE_ISSUER: boolean.default(false),
  /** How often the webhook worker looks for due deliveries, in milliseconds (lib/webhooks/worker.ts). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
  /**
   * Worker processes serving the one port (server.mjs forks them with node:cluster); unset or 1: a
   * single process. Read the same way by server.mjs, which decides before this module loads.
   */
  WEB_CONCURRENCY: z
    .string()
    .optional()
    .transform((value, context) => {
      const parsed = parseWebConcurrency(value);
      if ("error" in parsed) {
        context.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.workers;
    }),
  /**
   * Redis shared by every instance for the API keys' rate-limit counts (lib/auth/rate-limit-redis.ts):
   * redis://[user:password@]host:port[/db], or rediss:// for TLS. Unset: each process counts alone,
   * which is exact for one process but lets N instances admit N times a key's limit.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, "must be a Redis URL such as redis://127.0.0.1:6379")
    .refine((value) => URL.canParse(value), "must be a Redis URL such as redis://127.0.0.1:6379")
    .optional(),
  /**
   * Where e-mail goes out (lib/mail/mailer.ts): smtp://user:password@host:port, or smtps:// for TLS from
   * the first byte. Unset: nothing is e-mailed, and links are only shown to the admin who made them.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an SMTP URL such as smtp://user:password@mail.example.com:587")
    .refine((value) => URL.canParse(value), "must be an SMTP URL such as smtp://user:password@mail.example.com:587")
    .optional(),
  /** The From address of those e-mails, e.g. "Compliance <no-reply@example.com>"; needed with SMTP_URL. */
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /**
   * `test` hashes passwords at a trivial cost so the suite does not wait on hundreds of real hashes.
   * Only a process started by the test runner may use it (see testRunner); anywhere else it stops start-up.
   */
  PASSWORD_HASH_COST: z.enum(["production", "test"]).default("production"),
  /**
   * How often the SLA sweep looks for requests past their due date (lib/information-requests/sla-sweep.ts),
   * in milliseconds, instead of its fixed period. Only a process started by the test runner may set it
   * (see testRunner), so a test need not wait a quarter of a minute; anywhere else it stops start-up.
   */
  SLA_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
  /**
   * The Ed25519 private key (PKCS#8 PEM; `\n` may stand for line breaks) that signs audit checkpoints:
   * the same on every machine of a deployment. Unset: one is generated at first start into the data
   * directory, encrypted with the TOTP encryption key. Setting a new one rotates: it signs from the next
   * checkpoint on, and the old keys stay listed by GET /v1/audit_events/public_key.
   */
  AUDIT_SIGNING_KEY: z
    .string()
    .transform((value) => value.replace(/\\n/g, "\n").trim())
    .refine(isEd25519PrivateKey, "must be an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519)")
    .optional(),
  /**
   * Tests only: the audit sealer's period in milliseconds instead of 5 seconds (refused outside the
   * test runner, like SLA_SWEEP_INTERVAL_MS).
   */
  AUDIT_SEAL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
  /**
   * The public keys that sign secret-scanning reports (POST /v1/secret_scanning/reports): GitHub's JSON
   * from https://api.github.com/meta/public_keys/secret_scanning as it is, or PEM blocks one after the
   * other (lib/api-keys/secret-scanning-keys.ts). Unset: the route answers 404, as if it did not exist.
   */
  SECRET_SCANNING_PUBLIC_KEYS: z
    .string()
    .transform((value, context) => {
      const parsed = parseScanningKeys(value);
      if ("keys" in parsed) return parsed.keys;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    })
    .optional(),
  /**
   * OpenTelemetry traces: the OTLP/HTTP collector's base URL, e.g. http://otel-collector:4318 (spans go to
   * <it>/v1/traces as JSON; lib/observability/tracing.ts). Unset: no tracing, nothing of OpenTelemetry loaded.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The service name traces carry; unset: platform-compliance-service. */
  OTEL_SERVICE_NAME: z.string().min(1).max(255).optional(),
});

function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

export type Env = Omit<z.infer<typeof schema>, "SANDBOX"> & { SANDBOX: "on" | "off" };

export function decodeKey(value: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  return bytes.length === 32 ? bytes : null;
}

export class EnvError extends Error {}

/**
 * The test runner this process runs under, read from variables the runners set themselves: vitest
 * sets VITEST in its workers, Playwright sets TEST_WORKER_INDEX in its workers (a server a test
 * starts inherits it). A production start has neither.
 */
export function testRunner(source: Record<string, string | undefined>): "vitest" | "playwright" | null {
  if (source.VITEST) return "vitest";
  if (source.TEST_WORKER_INDEX) return "playwright";
  return null;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable is treated as unset, as shells and .env files commonly produce them.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  if (result.data.PASSWORD_HASH_COST === "test" && !testRunner(cleaned)) {
    throw new EnvError(
      "Invalid configuration:\n  PASSWORD_HASH_COST: test is refused: it is only for the test suite, and this process is not running under vitest or Playwright. Remove it; the service always hashes passwords at full cost.",
    );
  }
  if (result.data.SLA_SWEEP_INTERVAL_MS !== undefined && !testRunner(cleaned)) {
    throw new EnvError(
      "Invalid configuration:\n  SLA_SWEEP_INTERVAL_MS: is refused: it is only for the test suite, and this process is not running under vitest or Playwright. Remove it; the SLA sweep runs every 15 seconds.",
    );
  }
  if (result.data.AUDIT_SEAL_INTERVAL_MS !== undefined && !testRunner(cleaned)) {
    throw new EnvError(
      "Invalid configuration:\n  AUDIT_SEAL_INTERVAL_MS: is refused: it is only for the test suite, and this process is not running under vitest or Playwright. Remove it; the audit sealer runs every 5 seconds.",
    );
  }
  const { ENCRYPTION_KEY, TOTP_ENCRYPTION_KEY } = result.data;
  if (ENCRYPTION_KEY && TOTP_ENCRYPTION_KEY && !decodeKey(ENCRYPTION_KEY)!.equals(decodeKey(TOTP_ENCRYPTION_KEY)!)) {
    throw new EnvError(
      "Invalid configuration:\n  TOTP_ENCRYPTION_KEY: is the earlier name of ENCRYPTION_KEY, and the two hold different keys. Set ENCRYPTION_KEY alone (an earlier key goes in ENCRYPTION_KEYS_PREVIOUS).",
    );
  }
  if (result.data.SMTP_URL && !result.data.MAIL_FROM) {
    throw new EnvError(
      'Invalid configuration:\n  MAIL_FROM: is required with SMTP_URL (the sender of its e-mails, e.g. "Compliance <no-reply@example.com>")',
    );
  }
  return { ...result.data, SANDBOX: result.data.SANDBOX ?? sandboxDefault(cleaned) };
}

/**
 * SANDBOX when unset: off for a production start; on under `next dev` (which sets NODE_ENV=development;
 * an unset NODE_ENV does not count) and in processes the test runner started. `npm run demo` sets it.
 */
export function sandboxDefault(source: Record<string, string | undefined>): "on" | "off" {
  return source.NODE_ENV === "development" || testRunner(source) ? "on" : "off";
}

let cached: Env | undefined;

/** The validated configuration; re-read after resetEnv() (tests change variables between files). */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export function resetEnv() {
  cached = undefined;
}

/** Which database DATABASE_URL names: a SQLite file (file:...) or a PostgreSQL server (postgresql://...). */
export function databaseProvider(url = env().DATABASE_URL): "sqlite" | "postgresql" {
  return /^postgres(ql)?:/.test(url) ? "postgresql" : "sqlite";
}

// The paths below are the operator's, known only at run time: `turbopackIgnore` keeps the build from
// tracing (and shipping) the whole project on their account.

/** Absolute path of the SQLite file named by DATABASE_URL (relative paths are from the project root). */
export function databaseFile(url = env().DATABASE_URL): string {
  if (databaseProvider(url) !== "sqlite")
    throw new Error("databaseFile(): DATABASE_URL names PostgreSQL, not a SQLite file");
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), url.replace(/^file:/, "").replace(/\?.*$/, ""));
}

export function dataDirectory(): string {
  const { DATA_DIR, DATABASE_URL } = env();
  if (DATA_DIR) return path.resolve(/*turbopackIgnore: true*/ process.cwd(), DATA_DIR);
  return databaseProvider(DATABASE_URL) === "postgresql"
    ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data")
    : path.dirname(databaseFile());
}
