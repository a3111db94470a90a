import { existsSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { BackupError } from "@/lib/backup/backup-error";
import { installFile, writeOwnerOnlyFile } from "@/lib/backup/files";
import type { DatabaseContents } from "@/lib/backup/manifest";
import { ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";

// SQLite's side of a backup: SQLite's online backup API copies the database while the service keeps
// writing (in WAL mode a reader sees one snapshot and holds no writer back), and a restore puts the copy
// into place only where no database is.

/** How long a connection of ours waits for the service's lock (a checkpoint, a WAL recovery) before failing. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Pages per step of the backup: all of them, so the copy is made in one step, inside one read transaction,
 * and is one consistent snapshot. In smaller steps a write by the service between two steps restarts the
 * copy, and a steady stream of writes can restart it forever.
 */
const ALL_PAGES = 0x7fffffff;

/** The files SQLite keeps beside a database while it is in use: a stray one would be read as the restored database's own. */
const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** Every table of the database but the migrator's `_migrations` and SQLite's own `sqlite_*`, by name. */
function userTables(db: Database.Database): string[] {
  const names = db
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`)
    .pluck()
    .all() as string[];
  return names.filter((name) => name !== "_migrations").sort();
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The migrations applied (in the order applied) and the rows of every table, read from `db`. */
function contentsOf(db: Database.Database): DatabaseContents {
  const hasMigrations = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '_migrations'`).get();
  const migrations = hasMigrations
    ? (db.prepare(`SELECT name FROM "_migrations" ORDER BY "appliedAt", name`).pluck().all() as string[])
    : [];
  const rows: Record<string, number> = {};
  for (const table of userTables(db))
    rows[table] = Number(
      db
        .prepare(`SELECT count(*) FROM ${quoted(table)}`)
        .pluck()
        .get(),
    );
  return { migrations, rows };
}

/** The migrations and row counts of the SQLite database in `file` (which must exist). */
export function sqliteContents(file: string): DatabaseContents {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    return db.transaction(() => contentsOf(db))();
  } finally {
    db.close();
  }
}

/**
 * Copies the SQLite database `source` (the service may be running and writing) into the new file
 * `destination` (mode 0600), through SQLite's online backup API; the copy's migrations and row counts.
 * The copy is switched out of WAL mode, so it is one self-contained file.
 */
export async function backupSqlite(source: string, destination: string): Promise<DatabaseContents> {
  if (!existsSync(source)) throw new BackupError(`No SQLite database at ${source} (DATABASE_URL): nothing to back up`);
  // Read-only: the backup never writes to the service's database.
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    writeOwnerOnlyFile(destination, "");
    await db.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    return contentsOf(copy);
  } finally {
    copy.close();
  }
}

/**
 * Why the SQLite file `target` cannot be restored into, or null when it can: it does not exist or is empty,
 * and none of SQLite's side files lie beside its name (with one, some process may have it open, or a
 * database deleted without them left them; either way SQLite would read them as the restored database's
 * own). The operator moves them away; nothing here deletes a file it did not write.
 */
export function sqliteTargetRefusal(target: string): string | null {
  if (existsSync(target) && statSync(target).size > 0)
    return `${target} already holds a database: restore only where none exists (stop the service and move that file, with its -wal and -shm files, away first)`;
  const beside = SIDE_FILES.map((suffix) => `${target}${suffix}`).filter((file) => existsSync(file));
  if (beside.length > 0)
    return `${beside.join(", ")} lie beside ${target}: a process may be using that database, or it was deleted without them; stop the service and move them away first`;
  return null;
}

/**
 * Puts the backup's `source` copy (checked against `expected`) at `target`, mode 0600, its directory created
 * 0700 when missing; refused where sqliteTargetRefusal says.
 */
export function restoreSqlite(source: string, target: string, expected: string) {
  const refusal = sqliteTargetRefusal(target);
  if (refusal) throw new BackupError(refusal);
  ensureOwnerOnlyDirectory(path.dirname(target));
  const existed = existsSync(target);
  installFile(source, target, expected, { replace: existed });
}
