// `npm run demo`: creates and migrates the database named by DATABASE_URL (default ./data/app.db)
// and fills it with a demo platform, so a newcomer's first look at the dashboard is not empty.
import { databaseFile } from "@/lib/env";
import { migrateDatabase } from "@/lib/db/migrate";
import { DEMO_OWNER, seedDemoPlatform } from "@/lib/demo/seed-demo-platform";

async function main() {
  migrateDatabase(databaseFile());
  const started = Date.now();
  const { platform, subAccounts } = await seedDemoPlatform();
  console.log(`Demo platform "${platform.name}" with ${subAccounts.length} sub-accounts written to ${databaseFile()} in ${Date.now() - started} ms.`);
  console.log(`Sign in as ${DEMO_OWNER.email} with the password "${DEMO_OWNER.password}" (demo data only; change it).`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
