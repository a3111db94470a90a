import { databaseFile, databaseProvider, env, EnvError, testRunner } from "@/lib/env";
import { encryptionKey } from "@/lib/auth/encryption";
import { checkKeyCustody } from "@/lib/auth/key-custody";
import { migrate } from "@/lib/db/migrate";
import { postgresqlConnects, waitForDatabase } from "@/lib/db/reachability";
import { knownVariables, likelyTypos, typoWarning } from "@/lib/env-typos";
import { db, disconnectDb } from "@/lib/db";
import { provideDatabaseGauges } from "@/lib/observability/count";
import { readDatabaseGauges } from "@/lib/observability/database-gauges";
import { processSlot } from "@/lib/process-global";
import { currentSetupToken, forgetSetupToken, setupLink, setupTokenIsGenerated } from "@/lib/employees/setup";
import { startSlaSweep } from "@/lib/information-requests/sla-sweep";
import { startRetentionSweep } from "@/lib/retention/sweep";
import { auditSigningKey } from "@/lib/audit/seal/signing-key";
import { startAuditSealer } from "@/lib/audit/seal/sealer";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import cluster from "node:cluster";
import Database from "better-sqlite3";

/**
 * Before the server takes requests: a bad setting stops the process with a message naming the
 * variable, the database is created and migrated, the keys are checked against the data it holds
 * (lib/auth/key-custody.ts) and loaded, or generated where nothing was encrypted yet,
 * while nobody exists the way to first-run setup is printed, and the webhook worker, the SLA sweep
 * and the audit sealer start (server.mjs stops them on SIGTERM).
 */
export async function startUp() {
  // server.mjs listens once this has finished (Next.js does not wait for instrumentation itself).
  const done = (globalThis as Record<symbol, { resolve(): void; reject(error: unknown): void } | undefined>)[
    Symbol.for("platform-compliance.started")
  ];
  try {
    await startUpSteps();
  } catch (error) {
    done?.reject(error);
    throw error;
  }
  done?.resolve();
}

async function startUpSteps() {
  // Before env() checks the settings: a misspelt name may be why one seems missing (APP_ORGIN). Said once
  // under WEB_CONCURRENCY, like the setup link.
  if (!cluster.isWorker || cluster.worker?.id === 1)
    for (const typo of likelyTypos(process.env, knownVariables())) console.warn(typoWarning(typo));
  try {
    if (env().PASSWORD_HASH_COST === "test") {
      console.warn(
        `Passwords are hashed at test cost (PASSWORD_HASH_COST=test, under ${testRunner(process.env)}): never for real use.`,
      );
    }
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const url = env().DATABASE_URL;
  // PostgreSQL down or still starting: waited for up to 30 s, then one line naming DATABASE_URL (no password).
  if (databaseProvider() === "postgresql") await waitForDatabase(postgresqlConnects(url), { url });
  const applied = await migrate(url);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  // Before any key is loaded or generated: the keys must fit what the database holds.
  await checkKeyCustody();
  encryptionKey();
  // Generated at first start beside the encryption key (which encrypts it), or AUDIT_SIGNING_KEY.
  auditSigningKey();
  // Under WEB_CONCURRENCY the first worker (cluster id 1, started before the others) prints the way to
  // setup; the others and replacements of dead workers stay quiet, so the link appears once.
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    await announceSetup();
    warnOfLocalRateCounts();
  }
  // Webhook delivery, the SLA sweep and the audit sealer run in the server process; tests that call startUp() (vitest)
  // start their own when they want one.
  if (testRunner(process.env) !== "vitest" && process.env.NEXT_PHASE !== "phase-production-build") {
    startWebhookWorker();
    startSlaSweep();
    startRetentionSweep();
    startAuditSealer();
    // For server.mjs: the database it closes last when it stops, and what the metrics read from it.
    processSlot<() => Promise<void>>("close-database").set(disconnectDb);
    provideDatabaseGauges(readDatabaseGauges);
  }
}

/**
 * Several processes (WEB_CONCURRENCY), or PostgreSQL (the database of deployments with several
 * instances), without REDIS_URL: each process counts the keys' requests alone, so a key gets its limit
 * once per process. One line, since that may be what the operator wants.
 */
function warnOfLocalRateCounts() {
  const { REDIS_URL, WEB_CONCURRENCY } = env();
  if (REDIS_URL !== undefined) return;
  if ((WEB_CONCURRENCY ?? 1) <= 1 && databaseProvider() !== "postgresql") return;
  console.warn(
    "Rate limits: without REDIS_URL each process counts API keys' requests alone; several instances need REDIS_URL to hold a key to its limit.",
  );
}

/**
 * While no employee exists: the setup link, with the generated token in it (printed at start only:
 * never again, and never once setup is done). A token the operator set (SETUP_TOKEN) is not echoed.
 */
async function announceSetup() {
  if (await hasEmployees()) {
    forgetSetupToken();
    return;
  }
  if (!setupTokenIsGenerated()) {
    console.log(`First-run setup: open ${setupLink()} and enter the SETUP_TOKEN you configured.`);
    return;
  }
  console.log(
    `First-run setup: no employee exists yet. Open this link to create the platform and its owner; it works until setup is done:\n  ${setupLink(currentSetupToken())}`,
  );
}

async function hasEmployees(): Promise<boolean> {
  if (databaseProvider() === "postgresql") return (await db().employee.findFirst({ select: { id: true } })) !== null;
  const file = new Database(databaseFile(), { readonly: true });
  try {
    return Boolean(file.prepare(`SELECT EXISTS (SELECT 1 FROM "Employee") AS found`).pluck().get());
  } finally {
    file.close();
  }
}
