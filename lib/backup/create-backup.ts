import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";
import {
  copyOwnerOnlyFile,
  entriesUnder,
  sha256OfFile,
  syncToDisk,
  temporaryBeside,
  writeOwnerOnlyFile,
} from "@/lib/backup/files";
import { keyFilesIn, keysSetInEnvironment } from "@/lib/backup/keys";
import {
  counted,
  formatManifest,
  KEYS_DIRECTORY,
  MANIFEST_FILE,
  POSTGRESQL_FILE,
  SQLITE_FILE,
  totalRows,
  type DatabaseContents,
  type Manifest,
} from "@/lib/backup/manifest";
import { backupPostgresql } from "@/lib/backup/postgresql";
import { backupSqlite } from "@/lib/backup/sqlite";
import { ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";
import { databaseFile, databaseProvider } from "@/lib/env";

// An online backup: the database copied in one consistent snapshot while the service runs and writes, the
// key files of the data directory beside it, and manifest.json last. Everything is written into a hidden
// sibling directory that is renamed to the backup's name only when complete, so a backup that failed
// half-way leaves nothing that looks restorable.

export type BackupOptions = {
  /** Where the backup goes: a directory that does not exist yet, or an empty one. */
  dir: string;
  /** The database to back up (DATABASE_URL): a SQLite file URL or a PostgreSQL URL. */
  url: string;
  /** The service's data directory (DATA_DIR), whose `*.key` files are copied. */
  dataDir: string;
  /** Where the key variables are looked up (names only); default: this process's environment. */
  environment?: Record<string, string | undefined>;
};

export type BackupResult = { dir: string; manifest: Manifest };

/** The service's version, as package.json gives it. */
function serviceVersion(): string {
  const file = path.join(import.meta.dirname, "..", "..", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** Refuses a `dir` that exists and is not an empty directory. */
function checkDestination(dir: string) {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new BackupError(`${dir} exists and is not a directory: name a new one`);
  if (readdirSync(dir).length > 0)
    throw new BackupError(`${dir} is not empty: a backup goes into a new or empty directory, never over another`);
}

/** The hidden directory (mode 0700) the backup is written into, beside `dir`; `dir`'s parents are created 0700. */
function stagingBeside(dir: string): string {
  if (!existsSync(path.dirname(dir))) ensureOwnerOnlyDirectory(path.dirname(dir));
  const staging = temporaryBeside(dir, "partial");
  mkdirSync(staging, { mode: 0o700 });
  return staging;
}

/** Copies the data directory's key files into `keys/` of the backup. */
function copyKeyFiles(dataDir: string, staging: string) {
  const names = keyFilesIn(dataDir);
  if (names.length === 0) return;
  const keys = path.join(staging, KEYS_DIRECTORY);
  mkdirSync(keys, { mode: 0o700 });
  for (const name of names) copyOwnerOnlyFile(path.join(dataDir, name), path.join(keys, name));
  syncToDisk(keys);
}

/** The database's snapshot, into the backup's database file. */
function copyDatabase(url: string, staging: string): Promise<DatabaseContents> {
  return databaseProvider(url) === "sqlite"
    ? backupSqlite(databaseFile(url), path.join(staging, SQLITE_FILE))
    : backupPostgresql(url, path.join(staging, POSTGRESQL_FILE));
}

/** Writes the backup into `staging`: the database, the key files, then the manifest. */
async function writeBackup(options: BackupOptions, staging: string): Promise<Manifest> {
  const { migrations, rows } = await copyDatabase(options.url, staging);
  copyKeyFiles(options.dataDir, staging);
  const files = Object.fromEntries(entriesUnder(staging).map((name) => [name, sha256OfFile(path.join(staging, name))]));
  const manifest: Manifest = {
    createdAt: new Date().toISOString(),
    version: serviceVersion(),
    database: databaseProvider(options.url),
    migrations,
    rows,
    files,
    keysFromEnvironment: keysSetInEnvironment(options.environment ?? process.env),
  };
  writeOwnerOnlyFile(path.join(staging, MANIFEST_FILE), formatManifest(manifest));
  syncToDisk(staging);
  return manifest;
}

/** Renames the complete `staging` to `dir` (over an empty directory too: rename replaces one in one step). */
function putInPlace(staging: string, dir: string) {
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR")
      throw new BackupError(`${dir} was filled while the backup was written: the backup was discarded`);
    throw error;
  }
  syncToDisk(path.dirname(dir));
}

/**
 * Backs up the database `url` names (SQLite or PostgreSQL, the service running or not) and the key files
 * of `dataDir` into the new directory `dir` (mode 0700, files 0600), with manifest.json describing it.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const dir = path.resolve(options.dir);
  checkDestination(dir);
  const staging = stagingBeside(dir);
  let manifest: Manifest;
  try {
    manifest = await writeBackup(options, staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  putInPlace(staging, dir);
  return { dir, manifest };
}

/** The lines a backup prints: where, what, how much; and the keys it does not hold. */
export function describeBackup({ dir, manifest }: BackupResult): string[] {
  const tables = Object.keys(manifest.rows).length;
  const files = Object.keys(manifest.files).length;
  const lines = [
    `Backed up to ${dir}: ${manifest.database} database, ${counted(totalRows(manifest.rows), "row")} in ${counted(tables, "table")}, ${counted(files, "file")} and ${MANIFEST_FILE}.`,
  ];
  if (manifest.keysFromEnvironment.length > 0)
    lines.push(
      `Not in the backup: ${manifest.keysFromEnvironment.join(", ")}, set in the environment. Keep their values with this backup: a restore needs them set again.`,
    );
  return lines;
}
