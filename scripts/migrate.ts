// `npm run migrate`: applies the migrations this version has and the database has not, then exits. The
// same step as the start's (lib/db/migrate.ts: one at a time across instances, each in its own
// transaction), for an upgrade that migrates before it rolls out. Run again, it applies nothing. A
// database that has applied a migration this version does not have (a newer version's) is refused, as
// at start. Exit 0 when the database is up to date, 1 with one line when it cannot be.
import { migrate } from "../lib/db/migrate";
import { describeDatabaseUrl, postgresqlConnects, waitForDatabase, withoutSecrets } from "../lib/db/reachability";
import { databaseProvider, env } from "../lib/env";

async function main() {
  const url = env().DATABASE_URL;
  if (databaseProvider(url) === "postgresql") await waitForDatabase(postgresqlConnects(url), { url });
  const applied = await migrate(url);
  const where = describeDatabaseUrl(url);
  console.log(
    applied.length === 0
      ? `${where}: up to date, no migration to apply.`
      : `${where}: applied ${applied.length} migration${applied.length === 1 ? "" : "s"}: ${applied.join(", ")}.`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `npm run migrate: ${withoutSecrets(message.split("\n").join(" "), process.env.DATABASE_URL ?? "")}\n`,
    );
    process.exit(1);
  },
);
