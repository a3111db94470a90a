// `npm run demo`: creates and migrates a database of its own (./data/demo.db, or DATABASE_URL when set),
// fills it with a demo platform so a newcomer's first look at the dashboard is not empty, then starts
// the service (`npm start`) on it with the sandbox on. `--seed-only` stops after the seeding.
// Its own file, so that a real install's ./data/app.db is never filled with demo data, and a demo
// never finds the real install's employees and seeds nothing. A demo database that already has
// employees is not seeded again; the service just starts on it.
import { spawn } from "node:child_process";
import path from "node:path";
import { databaseFile, databaseProvider, env } from "@/lib/env";
import { migrate } from "@/lib/db/migrate";
import { db, disconnectDb } from "@/lib/db";
import { DEMO_OWNER, seedDemoPlatform } from "@/lib/demo/seed-demo-platform";

process.env.DATABASE_URL ||= "file:./data/demo.db";

/** Where the demo will answer: APP_ORIGIN, or localhost on PORT (as the start-up log says). */
const demoUrl = () => process.env.APP_ORIGIN || `http://localhost:${process.env.PORT || 3000}`;

async function seed() {
  await migrate(env().DATABASE_URL);
  const where = databaseProvider() === "postgresql" ? "the PostgreSQL database" : databaseFile();
  if ((await db().employee.count()) > 0) {
    console.log(`${where} already holds the demo (or other employees): not seeding it again.`);
    console.log(`To start over with fresh demo data, stop the service and delete ${where}.`);
  } else {
    const started = Date.now();
    const { platform, subAccounts } = await seedDemoPlatform();
    console.log(
      `Demo platform "${platform.name}" with ${subAccounts.length} sub-accounts written to ${where} in ${Date.now() - started} ms.`,
    );
  }
  if (!(await db().employee.findUnique({ where: { email: DEMO_OWNER.email }, select: { id: true } }))) return;
  console.log(`Open ${demoUrl()} and sign in as ${DEMO_OWNER.email} with the password "${DEMO_OWNER.password}".`);
  console.log("(Demo data only: that password is public. Your own install's data stays in ./data/app.db.)");
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
