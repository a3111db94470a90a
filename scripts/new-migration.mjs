// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with
// the SQL that takes the existing migrations to the current schema.prisma.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { diffMigrationsToSchema, migrationsDir } from "./lib/schema-diff.mjs";

const name = (process.argv[2] ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
const sql = await diffMigrationsToSchema();
if (!sql) {
  console.log("schema.prisma and the migrations agree: nothing to write.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
const lock = path.join(migrationsDir, "migration_lock.toml");
if (!existsSync(lock)) writeFileSync(lock, 'provider = "sqlite"\n');
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
