// Runs before every test file: a throwaway database of its own, migrated, and the same process-wide
// settings the production server makes. A SQLite file; with TEST_DATABASE=postgresql (the second half
// of `npm test`, see vitest.config.mts) a database of its own on the server POSTGRESQL_TEST_URL names.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "pcs-test-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
if (process.env.TEST_DATABASE === "postgresql") {
  // The generated key and setup token in this file's own directory, as beside its SQLite file.
  process.env.DATA_DIR = dir;
  const pg = (await import("pg")).default;
  const base = process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
  // Named after the run: lib/testing/global-setup.ts drops them when every file has finished.
  const name = `${process.env.PCS_TEST_RUN ?? "pcs_test_solo"}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
} else {
  delete process.env.DATA_DIR;
}
(process.env as Record<string, string>).NODE_ENV = "test";
delete process.env.TOTP_ENCRYPTION_KEY;
delete process.env.ENCRYPTION_KEY;
delete process.env.ENCRYPTION_KEYS_PREVIOUS;
delete process.env.TRUST_PROXY;
// Setup tests choose: SETUP_TOKEN set, or the generated token (lib/employees/setup.ts).
delete process.env.SETUP_TOKEN;
// Unset, SANDBOX is on in a process the test runner started (lib/env.ts sandboxDefault).
delete process.env.SANDBOX;
// Webhook receivers in the tests listen on 127.0.0.1 (lib/webhooks/url-guard.ts refuses it otherwise).
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
process.env.SSO_ALLOW_INSECURE_ISSUER = "true";
// Real hashes cost up to seconds each on a slow machine; lib/auth/passwords.test.ts covers the real cost.
process.env.PASSWORD_HASH_COST = "test";

const { resetEnv } = await import("@/lib/env");
resetEnv();
const { migrate } = await import("@/lib/db/migrate");
await migrate(process.env.DATABASE_URL);
const { PEER_MARK } = await import("@/lib/http/client-ip");
// As server.mjs does: the last X-Forwarded-For entry is the TCP peer (tests put it there).
(globalThis as Record<symbol, unknown>)[PEER_MARK] = true;

// A failed property's message carries the assertion that failed ("Got AssertionError: ..."), not only
// its error's cause: vitest's JSON report keeps the message alone, and npm test's summary (the tail a CI
// log keeps) is made from that report.
fc.configureGlobal({ includeErrorInReport: true });

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
});
