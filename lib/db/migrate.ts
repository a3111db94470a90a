import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureOwnerOnlyFile } from "@/lib/db/owner-only";

const LOCK_WAIT_MS = 300_000;

const migrationsDir = () => path.join(process.cwd(), "prisma", "migrations");

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
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS "_migrations" (
      "name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`);
    const applied = new Map(
      (db.prepare(`SELECT name, checksum FROM "_migrations"`).all() as { name: string; checksum: string }[]).map(
        (row) => [row.name, row.checksum],
      ),
    );
    const names = readdirSync(migrationsDir(), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const done: string[] = [];
    for (const name of names) {
      const sql = readFileSync(path.join(migrationsDir(), name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const known = applied.get(name);
      if (known !== undefined) {
        if (known !== checksum) throw new Error(`Migration ${name} was changed after it was applied to ${file}.`);
        continue;
      }
      const appliedHere = db.transaction(() => {
        // Another process may have applied it while this one waited for the lock.
        const theirs = db.prepare(`SELECT checksum FROM "_migrations" WHERE name = ?`).pluck().get(name) as string | undefined;
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
      }).immediate();
      if (appliedHere) done.push(name);
    }
    return done;
  } finally {
    db.close();
  }
}
