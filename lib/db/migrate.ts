import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureOwnerOnlyFile } from "@/lib/db/owner-only";
import { databaseFile, databaseProvider } from "@/lib/env";

const LOCK_WAIT_MS = 300_000;

/** prisma/migrations holds SQLite's migrations, prisma/migrations-postgresql PostgreSQL's, both generated from schema.prisma. */
const migrationsDir = (provider: "sqlite" | "postgresql" = "sqlite") =>
  path.join(process.cwd(), "prisma", provider === "sqlite" ? "migrations" : "migrations-postgresql");

/** Each migration's name, SQL and checksum, in order. */
function migrationsOnDisk(provider: "sqlite" | "postgresql") {
  return readdirSync(migrationsDir(provider), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(migrationsDir(provider), name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * A database that has applied a migration this code does not have was written by a newer version:
 * starting on it would run code that does not know its schema. Migrations only go forward, so the way
 * back is the backup made before the upgrade (docs/operations.md, Upgrades).
 */
export function refuseDowngrade(applied: Iterable<string>, onDisk: { name: string }[], where: string) {
  const known = new Set(onDisk.map((migration) => migration.name));
  const unknown = [...applied].filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  throw new Error(
    `${where} has applied migration ${unknown[0]}${unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : ""}, which this version does not have: it was upgraded by a newer version. Run that version, or restore the backup made before the upgrade.`,
  );
}

/** Applies the migrations to the database DATABASE_URL names, SQLite or PostgreSQL; the names applied. */
export async function migrate(url: string): Promise<string[]> {
  return databaseProvider(url) === "postgresql" ? migratePostgres(url) : migrateDatabase(databaseFile(url));
}

/** Any constant both instances agree on: the key of the advisory lock that makes migrations one at a time. */
const MIGRATION_LOCK_KEY = 7_238_412_901;

/**
 * PostgreSQL's version of migrateDatabase: the same _migrations bookkeeping and checksum rule, each
 * migration in its own transaction. Instances starting at once take turns on a session-level advisory
 * lock, so the second one finds the first one's migrations recorded instead of applying them again.
 */
export async function migratePostgres(url: string): Promise<string[]> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(`SET client_min_messages = warning`);
    await client.query(`CREATE TABLE IF NOT EXISTS "_migrations" (
      "name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`);
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "_migrations"`);
    const applied = new Map(rows.map((row) => [row.name, row.checksum]));
    const onDisk = migrationsOnDisk("postgresql");
    refuseDowngrade(applied.keys(), onDisk, "The PostgreSQL database");
    const done: string[] = [];
    for (const { name, sql, checksum } of onDisk) {
      const known = applied.get(name);
      if (known !== undefined) {
        if (known !== checksum)
          throw new Error(`Migration ${name} was changed after it was applied to the PostgreSQL database.`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(`INSERT INTO "_migrations" (name, checksum, "appliedAt") VALUES ($1, $2, $3)`, [
          name,
          checksum,
          new Date().toISOString(),
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      done.push(name);
    }
    return done;
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end();
  }
}

/** Runs `work` again, 20 ms apart, while SQLite answers SQLITE_BUSY, for up to LOCK_WAIT_MS. */
function whileBusy<T>(work: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY") || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/**
 * Applies every migration in prisma/migrations not yet applied to the SQLite file, each in its own
 * transaction, recording name and checksum. A migration edited after it was applied stops start-up:
 * silently diverging schemas are how data gets lost. A new file and directory are made owner-only
 * (0600 and 0700; the -wal and -shm files follow the file's mode).
 *
 * Safe when several processes start on one file at once (WEB_CONCURRENCY workers, instances): each
 * migration runs under BEGIN IMMEDIATE, which waits for the write lock, and checks inside it whether
 * another process applied it meanwhile; the list read before is only a quick first look.
 */
export function migrateDatabase(file: string): string[] {
  ensureOwnerOnlyFile(file);
  const db = new Database(file);
  try {
    // First: every later step waits for another process's lock instead of failing at once. A long
    // migration in another process may hold it a while (the server allows start-up 5 minutes).
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    // SQLite does not call the busy handler everywhere (switching a fresh file to WAL takes its
    // exclusive lock without waiting): with six processes starting at once on a loaded machine, one
    // got "database is locked" at once here. These first steps are idempotent, so they are retried.
    const applied = whileBusy(() => {
      db.pragma("journal_mode = WAL");
      db.exec(`CREATE TABLE IF NOT EXISTS "_migrations" (
        "name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`);
      const rows = db.prepare(`SELECT name, checksum FROM "_migrations"`).all() as { name: string; checksum: string }[];
      return new Map(rows.map((row) => [row.name, row.checksum]));
    });
    const onDisk = migrationsOnDisk("sqlite");
    refuseDowngrade(applied.keys(), onDisk, file);
    const done: string[] = [];
    for (const { name, sql, checksum } of onDisk) {
      const known = applied.get(name);
      if (known !== undefined) {
        if (known !== checksum) throw new Error(`Migration ${name} was changed after it was applied to ${file}.`);
        continue;
      }
      const appliedHere = db
        .transaction(() => {
          // Another process may have applied it while this one waited for the lock.
          const theirs = db.prepare(`SELECT checksum FROM "_migrations" WHERE name = ?`).pluck().get(name) as
            string | undefined;
          if (theirs !== undefined) {
            if (theirs !== checksum) throw new Error(`Migration ${name} was changed after it was applied to ${file}.`);
            return false;
          }
          db.exec(sql);
          db.prepare(`INSERT INTO "_migrations" (name, checksum, appliedAt) VALUES (?, ?, ?)`).run(
            name,
            checksum,
            new Date().toISOString(),
          );
          return true;
        })
        .immediate();
      if (appliedHere) done.push(name);
    }
    return done;
  } finally {
    db.close();
  }
}
