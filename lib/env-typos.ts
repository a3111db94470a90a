import { distance } from "fastest-levenshtein";
import type { Env } from "@/lib/env";

// A misspelt setting is not an error (the environment is full of variables that are not ours), so it is
// silently ignored and its default used: APP_ORGIN=https://... leaves the origin unset. At start, a variable
// one edit away from a name the service knows is named with the name it probably meant. Names only: the
// value can be a secret and is never read.

/**
 * Every variable lib/env.ts validates. `satisfies` holds it to the schema: a variable added there and not
 * here (or one left here after it was removed there) fails the type check.
 */
const SCHEMA_VARIABLES = {
  NODE_ENV: true,
  PORT: true,
  HOST: true,
  DATABASE_URL: true,
  DATABASE_POOL_SIZE: true,
  DATABASE_POOL_TIMEOUT_MS: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
  DATABASE_LOCK_TIMEOUT_MS: true,
  DATA_DIR: true,
  TRUST_PROXY: true,
  ENCRYPTION_KEY: true,
  TOTP_ENCRYPTION_KEY: true,
  ENCRYPTION_KEYS_PREVIOUS: true,
  SESSION_IDLE_MINUTES: true,
  SESSION_MAX_HOURS: true,
  COOKIE_SECURE: true,
  APP_ORIGIN: true,
  SANDBOX: true,
  SETUP_TOKEN: true,
  TOTP_ISSUER: true,
  WEBHOOK_ALLOW_PRIVATE: true,
  SSO_ALLOW_INSECURE_ISSUER: true,
  WEBHOOK_POLL_MS: true,
  WEB_CONCURRENCY: true,
  REDIS_URL: true,
  SMTP_URL: true,
  MAIL_FROM: true,
  PASSWORD_HASH_COST: true,
  SLA_SWEEP_INTERVAL_MS: true,
  AUDIT_SIGNING_KEY: true,
  AUDIT_SEAL_INTERVAL_MS: true,
  SECRET_SCANNING_PUBLIC_KEYS: true,
  OTEL_EXPORTER_OTLP_ENDPOINT: true,
  OTEL_SERVICE_NAME: true,
} as const satisfies Record<keyof Env, true>;

/** Variables read outside lib/env.ts's schema: by server.mjs and its start, the runtime, the tests and the tooling. */
export const OTHER_VARIABLES: readonly string[] = [
  // server.mjs, scripts/start.mjs, next.config.js and the process around them
  "NEXT_DIST_DIR",
  "NEXT_TELEMETRY_DISABLED",
  "NEXT_PHASE",
  "NEXT_RUNTIME",
  "NODE_OPTIONS",
  "MALLOC_ARENA_MAX",
  "LOG_LEVEL",
  "LOG_FORMAT",
  "METRICS_PORT",
  "METRICS_HOST",
  "SHUTDOWN_DELAY_MS",
  "SHUTDOWN_GRACE_MS",
  // read by the OpenTelemetry exporter itself
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  // the test runners and the test and bench tooling
  "VITEST",
  "TEST_WORKER_INDEX",
  "TEST_DATABASE",
  "POSTGRESQL_TEST_URL",
  "REQUIRE_POSTGRESQL",
  "PCS_TEST_RUN",
  "E2E_PORT",
  "E2E_DATA_DIR",
  "E2E_SETUP_TOKEN",
  "PLAYWRIGHT_CHROMIUM_PATH",
  "HOSTILE_RUNS_SCALE",
  "HOSTILE_STATS",
  "BENCH_SECONDS",
  "BENCH_CPU_SECONDS",
  "BENCH_CPU_ROUNDS",
  "BENCH_QUEUE_ROUNDS",
  "BENCH_SEAL_EVENTS",
  "PRISMA_SCHEMA_ENGINE_BINARY",
];

/** The variables lib/env.ts validates. */
export function schemaVariables(): string[] {
  return Object.keys(SCHEMA_VARIABLES);
}

/** Every variable name the service or its tooling reads. */
export function knownVariables(): string[] {
  return [...schemaVariables(), ...OTHER_VARIABLES];
}

export type LikelyTypo = { name: string; suggestion: string };

/**
 * The variables of `environment` that are not in `known` but one edit (Levenshtein distance 1, case-sensitive)
 * from a name in it, each with the first such name, sorted by name. Values are not looked at.
 */
export function likelyTypos(environment: Record<string, string | undefined>, known: readonly string[]): LikelyTypo[] {
  const knownSet = new Set(known);
  const typos: LikelyTypo[] = [];
  for (const name of Object.keys(environment)) {
    if (knownSet.has(name)) continue;
    // Names more than one character longer or shorter cannot be one edit away: skip the distance for them.
    const suggestion = known.find(
      (candidate) => Math.abs(candidate.length - name.length) <= 1 && distance(name, candidate) === 1,
    );
    if (suggestion !== undefined) typos.push({ name, suggestion });
  }
  return typos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The warning for one typo, on one line (a control character in the name is shown escaped). */
export function typoWarning(typo: LikelyTypo): string {
  return `Unknown variable ${printable(typo.name)}: did you mean ${typo.suggestion}?`;
}

function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
