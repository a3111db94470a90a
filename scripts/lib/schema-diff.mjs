// Diffs the committed migrations against prisma/schema.prisma with Prisma's WebAssembly schema engine,
// which runs offline (the native engine the CLI wants cannot be downloaded everywhere). SQLite's
// migrations live in prisma/migrations; PostgreSQL's, from the same schema (scripts/lib/postgresql-schema.mjs),
// in prisma/migrations-postgresql and need a PostgreSQL server to diff against (POSTGRESQL_TEST_URL).
// Needs `node --experimental-wasm-modules` on Node 22 (its ESM entry imports a .wasm file); Node 24 has it unflagged.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { postgresqlReachable, postgresqlTestUrl } from "./postgresql.mjs";
import { postgresqlSchema } from "./postgresql-schema.mjs";

export { postgresqlReachable };

export const root = path.resolve(import.meta.dirname, "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");
export const postgresqlMigrationsDir = path.join(root, "prisma/migrations-postgresql");

export function listMigrations(dir = migrationsDir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function diff(adapter, schema, from) {
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
  try {
    const result = await engine.diff({
      from: from ?? { tag: "schemaDatasource", files: [{ path: schemaPath, content: schema }], configDir: root },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = (result.stdout ?? "").trim();
    return sql === "-- This is an empty migration." ? "" : sql;
  } finally {
    engine.free();
  }
}

/** SQL that takes a SQLite database built from prisma/migrations to the schema; "" when they agree. */
export async function diffMigrationsToSchema() {
  const work = mkdtempSync(path.join(tmpdir(), "schema-diff-"));
  try {
    const adapter = new PrismaBetterSqlite3({ url: `file:${path.join(work, "scratch.db")}` });
    // Build a scratch database from the migrations, then let the engine introspect it (through the
    // adapter) and diff it against the datamodel. The engine's own "migrations" source needs a
    // shadow database that the WebAssembly build cannot open.
    const scratch = new Database(path.join(work, "scratch.db"));
    for (const dir of listMigrations())
      scratch.exec(readFileSync(path.join(migrationsDir, dir, "migration.sql"), "utf8"));
    scratch.close();
    return await diff(adapter, readFileSync(schemaPath, "utf8"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The engine introspects through the adapter with catalog queries that return PostgreSQL's one-byte
 * "char" type (OID 18), which @prisma/adapter-pg 7.10 refuses as an unsupported column type; pg reads
 * it as a string anyway, so it is reported as text (OID 25) instead.
 */
class CatalogClient extends pg.Client {
  query(config, values, callback) {
    const asText = (result) => {
      for (const field of result?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    };
    if (typeof values === "function") return super.query(config, (error, result) => values(error, asText(result)));
    if (typeof callback === "function")
      return super.query(config, values, (error, result) => callback(error, asText(result)));
    const pending = super.query(config, values);
    return pending && typeof pending.then === "function" ? pending.then(asText) : pending;
  }
}

/** Runs `work(url)` with a new, empty database on the test server, dropped afterwards. */
export async function withScratchPostgresql(work, base = postgresqlTestUrl()) {
  const name = `pcs_scratch_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

/**
 * SQL that takes a PostgreSQL database built from prisma/migrations-postgresql to the schema; "" when
 * they agree. `fromEmpty`: the SQL that creates the whole schema (for a first migration).
 */
export async function diffPostgresqlMigrationsToSchema({ fromEmpty = false } = {}) {
  return withScratchPostgresql(async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const dir of listMigrations(postgresqlMigrationsDir)) {
        await client.query(readFileSync(path.join(postgresqlMigrationsDir, dir, "migration.sql"), "utf8"));
      }
    } finally {
      await client.end();
    }
    const pool = new pg.Pool({ connectionString: url, Client: CatalogClient });
    try {
      return await diff(new PrismaPg(pool), postgresqlSchema(), fromEmpty ? { tag: "empty" } : undefined);
    } finally {
      await pool.end();
    }
  });
}
