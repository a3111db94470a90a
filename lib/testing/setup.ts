// Runs before every test file: a throwaway SQLite database of its own, migrated, and the same
// process-wide settings the production server makes.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "pcs-test-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
(process.env as Record<string, string>).NODE_ENV = "test";
delete process.env.TOTP_ENCRYPTION_KEY;
delete process.env.TRUST_PROXY;
// Setup tests choose: SETUP_TOKEN set, or the generated token (lib/employees/setup-token.ts).
delete process.env.SETUP_TOKEN;
// Unset, SANDBOX is on in a process the test runner started (lib/env.ts sandboxDefault).
delete process.env.SANDBOX;
// Webhook receivers in the tests listen on 127.0.0.1 (lib/webhooks/url-guard.ts refuses it otherwise).
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
// Real hashes cost up to seconds each on a slow machine; lib/auth/passwords.test.ts covers the real cost.
process.env.PASSWORD_HASH_COST = "test";

const { resetEnv, databaseFile } = await import("@/lib/env");
resetEnv();
const { migrateDatabase } = await import("@/lib/db/migrate");
migrateDatabase(databaseFile());
const { PEER_MARK } = await import("@/lib/http/client-ip");
// As server.mjs does: the last X-Forwarded-For entry is the TCP peer (tests put it there).
(globalThis as Record<symbol, unknown>)[PEER_MARK] = true;

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
});
