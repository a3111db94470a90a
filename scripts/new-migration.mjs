// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql (SQLite)
// and prisma/migrations-postgresql/<timestamp>_<name>/migration.sql (PostgreSQL; needs the server
// POSTGRESQL_TEST_URL names) with the SQL that takes each one's existing migrations to the current schema.prisma.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import {
  diffMigrationsToSchema,
  diffPostgresqlMigrationsToSchema,
  migrationsDir,
  postgresqlMigrationsDir,
  postgresqlReachable,
} from "./lib/schema-diff.mjs";

const name = (process.argv[2] ?? "")
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, "_")
  .replace(/^_|_$/g, "");
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
const reachable = await postgresqlReachable();
if (!reachable.ok) {
  console.error(`The PostgreSQL migration needs a PostgreSQL server: ${reachable.reason}. Set POSTGRESQL_TEST_URL.`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
for (const [dir, provider, diff] of [
  [migrationsDir, "sqlite", diffMigrationsToSchema],
  [postgresqlMigrationsDir, "postgresql", diffPostgresqlMigrationsToSchema],
]) {
  const sql = await diff();
  if (!sql) {
    console.log(`schema.prisma and the ${provider} migrations agree: nothing to write.`);
    continue;
  }
  const target = path.join(dir, `${stamp}_${name}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, "migration.sql"), `${sql}\n`);
  const lock = path.join(dir, "migration_lock.toml");
  if (!existsSync(lock)) writeFileSync(lock, `provider = "${provider}"\n`);
  console.log(`wrote ${path.relative(process.cwd(), target)}/migration.sql`);
}
