// `npm run demo`: creates and migrates the database named by DATABASE_URL (default ./data/app.db),
// fills it with a demo platform so a newcomer's first look at the dashboard is not empty, then starts
// the service (`npm start`) with the sandbox on. `--seed-only` stops after the seeding.
// A database that already has employees is not seeded again; the service just starts on it.
import { spawn } from "node:child_process";
import path from "node:path";
import { databaseFile, databaseProvider, env } from "@/lib/env";
import { migrate } from "@/lib/db/migrate";
import { db, disconnectDb } from "@/lib/db";
import { DEMO_OWNER, seedDemoPlatform } from "@/lib/demo/seed-demo-platform";

async function seed() {
  await migrate(env().DATABASE_URL);
  const where = databaseProvider() === "postgresql" ? "the PostgreSQL database" : databaseFile();
  if ((await db().employee.count()) > 0) {
    console.log(`${where} already has employees: not seeding it again (demo data goes into a fresh database).`);
    return;
  }
  const started = Date.now();
  const { platform, subAccounts } = await seedDemoPlatform();
  console.log(
    `Demo platform "${platform.name}" with ${subAccounts.length} sub-accounts written to ${where} in ${Date.now() - started} ms.`,
  );
  console.log(`Sign in as ${DEMO_OWNER.email} with the password "${DEMO_OWNER.password}" (demo data only; change it).`);
}

/** `npm start` with the sandbox on (unless SANDBOX says otherwise), in the foreground; its exit is ours. */
function startService() {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "start.mjs")], {
    stdio: "inherit",
    env: { ...process.env, SANDBOX: process.env.SANDBOX || "on" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function main() {
  await seed();
  await disconnectDb();
  if (!process.argv.includes("--seed-only")) startService();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
