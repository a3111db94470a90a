// Diffs prisma/migrations against prisma/schema.prisma with Prisma's WebAssembly schema engine,
// which runs offline (the native engine the CLI wants cannot be downloaded everywhere).
// Needs `node --experimental-wasm-modules` on Node 20.
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { SchemaEngine } from "@prisma/schema-engine-wasm";

export const root = path.resolve(import.meta.dirname, "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");

export function listMigrations() {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** SQL that takes a database built from the migrations to the schema; "" when they agree. */
export async function diffMigrationsToSchema() {
  const work = mkdtempSync(path.join(tmpdir(), "schema-diff-"));
  try {
    const adapter = new PrismaBetterSqlite3({ url: `file:${path.join(work, "scratch.db")}` });
    const schema = readFileSync(schemaPath, "utf8");
    const engine = await SchemaEngine.new(
      { datamodels: [[schemaPath, schema]] },
      () => {},
      bindMigrationAwareSqlAdapterFactory(adapter),
    );
    // Build a scratch database from the migrations, then let the engine introspect it (through the
    // adapter) and diff it against the datamodel. The engine's own "migrations" source needs a
    // shadow database that the WebAssembly build cannot open.
    const scratch = new Database(path.join(work, "scratch.db"));
    for (const dir of listMigrations()) scratch.exec(readFileSync(path.join(migrationsDir, dir, "migration.sql"), "utf8"));
    scratch.close();
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files: [{ path: schemaPath, content: schema }], configDir: root },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    engine.free();
    const sql = (result.stdout ?? "").trim();
    return sql === "-- This is an empty migration." ? "" : sql;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
