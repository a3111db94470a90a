import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureOwnerOnlyFile } from "@/lib/db/owner-only";

const migrationsDir = () => path.join(process.cwd(), "prisma", "migrations");

/**
 * Applies every migration in prisma/migrations not yet applied to the SQLite file, each in its own
 * transaction, recording name and checksum. A migration edited after it was applied stops start-up:
 * silently diverging schemas are how data gets lost. A new file and directory are made owner-only
 * (0600 and 0700; the -wal and -shm files follow the file's mode).
 */
export function migrateDatabase(file: string): string[] {
  ensureOwnerOnlyFile(file);
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
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
      db.transaction(() => {
        db.exec(sql);
        db.prepare(`INSERT INTO "_migrations" (name, checksum, appliedAt) VALUES (?, ?, ?)`).run(
          name,
          checksum,
          new Date().toISOString(),
        );
      }).immediate();
      done.push(name);
    }
    return done;
  } finally {
    db.close();
  }
}
