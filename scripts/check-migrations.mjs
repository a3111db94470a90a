// Exits 1 when schema.prisma and the committed migrations disagree, printing the missing SQL: SQLite's
// (prisma/migrations) always; PostgreSQL's (prisma/migrations-postgresql) on the server POSTGRESQL_TEST_URL
// names, or, when none answers, says it skipped that half and why (REQUIRE_POSTGRESQL=1 makes that a failure).
import { diffMigrationsToSchema, diffPostgresqlMigrationsToSchema, postgresqlReachable } from "./lib/schema-diff.mjs";

let failed = false;
const sql = await diffMigrationsToSchema();
if (sql) {
  console.error("schema.prisma has changes no migration carries. Run `npm run db:migration -- <name>`:\n" + sql);
  failed = true;
} else {
  console.log("schema.prisma and the migrations agree (SQLite).");
}

const reachable = await postgresqlReachable();
if (!reachable.ok) {
  console.log(`PostgreSQL migrations not checked: ${reachable.reason}. Set POSTGRESQL_TEST_URL to check them.`);
  if (process.env.REQUIRE_POSTGRESQL === "1") failed = true;
} else {
  const postgresqlSql = await diffPostgresqlMigrationsToSchema();
  if (postgresqlSql) {
    console.error(
      "schema.prisma has changes no PostgreSQL migration carries. Run `npm run db:migration -- <name>`:\n" +
        postgresqlSql,
    );
    failed = true;
  } else {
    console.log("schema.prisma and the migrations agree (PostgreSQL).");
  }
}
process.exit(failed ? 1 : 0);
