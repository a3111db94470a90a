import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";
import { installFile, syncToDisk } from "@/lib/backup/files";
import { checkKeyTargets } from "@/lib/backup/keys";
import {
  counted,
  databaseFileOf,
  KEYS_DIRECTORY,
  totalRows,
  type DatabaseContents,
  type DatabaseKind,
  type Manifest,
} from "@/lib/backup/manifest";
import { checkPostgresqlTarget, postgresqlContents, restorePostgresql } from "@/lib/backup/postgresql";
import { restoreSqlite, sqliteContents, sqliteTargetRefusal } from "@/lib/backup/sqlite";
import { verifyBackup } from "@/lib/backup/verify-backup";
import { ensureOwnerOnlyDirectory } from "@/lib/db/owner-only";
import { describeDatabaseUrl } from "@/lib/db/reachability";
import { databaseFile, databaseProvider } from "@/lib/env";

// A restore into a database that holds nothing yet: every check first (the backup's checksums, the kind of
// database, an empty target, no key file in the way), then the database, then the key files, and last the
// restored database's rows counted against the manifest.

export type RestoreOptions = {
  /** The backup: a directory createBackup wrote. */
  dir: string;
  /** The database to restore into (DATABASE_URL): a SQLite file that does not exist yet (or is empty), or an empty PostgreSQL database. */
  url: string;
  /** The service's data directory (DATA_DIR), where the key files go. */
  dataDir: string;
};

export type RestoreResult = { dir: string; manifest: Manifest; target: string; keyFiles: string[] };

/** The database `url` names, as a message may show it: the SQLite file's path, or the URL without its password. */
export const describeTarget = (url: string) =>
  databaseProvider(url) === "sqlite" ? databaseFile(url) : describeDatabaseUrl(url);

/** The migrations and row counts of the database `url` names (SQLite or PostgreSQL). */
export function databaseContents(url: string): Promise<DatabaseContents> {
  return databaseProvider(url) === "sqlite"
    ? Promise.resolve(sqliteContents(databaseFile(url)))
    : postgresqlContents(url);
}

/** The name of each key file the backup holds. */
const keyFilesOf = (manifest: Manifest) =>
  Object.keys(manifest.files)
    .filter((name) => name.startsWith(`${KEYS_DIRECTORY}/`))
    .map((name) => name.slice(KEYS_DIRECTORY.length + 1));

/** Every check that can be made before anything is written. */
async function checkTarget(manifest: Manifest, options: RestoreOptions, kind: DatabaseKind) {
  if (manifest.database !== kind)
    throw new BackupError(
      `The backup holds a ${manifest.database} database but DATABASE_URL names ${kind === "sqlite" ? "a SQLite file" : "a PostgreSQL database"}: restore it into a ${manifest.database} database`,
    );
  checkKeyTargets(options.dataDir, keyFilesOf(manifest));
  if (kind === "postgresql") return checkPostgresqlTarget(options.url);
  const refusal = sqliteTargetRefusal(databaseFile(options.url));
  if (refusal) throw new BackupError(refusal);
}

/** Copies the backup's key files into the data directory (0700), each 0600, never over an existing one. */
function restoreKeyFiles(dir: string, dataDir: string, manifest: Manifest): string[] {
  const names = keyFilesOf(manifest);
  if (names.length === 0) return names;
  ensureOwnerOnlyDirectory(dataDir);
  for (const name of names) {
    const relative = `${KEYS_DIRECTORY}/${name}`;
    installFile(path.join(dir, KEYS_DIRECTORY, name), path.join(dataDir, name), manifest.files[relative]!);
  }
  syncToDisk(dataDir);
  return names;
}

const countOf = (rows: Record<string, number>, table: string) => (Object.hasOwn(rows, table) ? rows[table] : undefined);

/** Fails loudly, naming the table, when the restored database's rows or migrations differ from the manifest's. */
export function compareContents(expected: DatabaseContents, restored: DatabaseContents) {
  const tables = [...new Set([...Object.keys(expected.rows), ...Object.keys(restored.rows)])].sort();
  for (const table of tables) {
    const [want, got] = [countOf(expected.rows, table), countOf(restored.rows, table)];
    if (want !== got)
      throw new BackupError(
        `The restored database differs from the backup: table ${table} has ${got === undefined ? "no rows" : counted(got, "row")}, the manifest says ${want ?? "it does not exist"}`,
      );
  }
  if (expected.migrations.join("\n") !== restored.migrations.join("\n"))
    throw new BackupError(
      "The restored database differs from the backup: its applied migrations are not the manifest's",
    );
}

/**
 * Restores the backup in `dir` into the database `url` names and the key files into `dataDir`, after
 * checking the backup whole and the target empty; then checks the restored rows against the manifest.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dir = path.resolve(options.dir);
  const manifest = verifyBackup(dir);
  const kind = databaseProvider(options.url);
  await checkTarget(manifest, options, kind);
  const database = path.join(dir, databaseFileOf(kind));
  if (kind === "sqlite") restoreSqlite(database, databaseFile(options.url), manifest.files[databaseFileOf(kind)]!);
  else await restorePostgresql(options.url, database);
  const keyFiles = restoreKeyFiles(dir, options.dataDir, manifest);
  compareContents(manifest, await databaseContents(options.url));
  return { dir, manifest, target: describeTarget(options.url), keyFiles };
}

/** The lines a restore prints: what went where; and the keys that must be set again. */
export function describeRestore({ dir, manifest, target, keyFiles }: RestoreResult): string[] {
  const tables = Object.keys(manifest.rows).length;
  const lines = [
    `Restored ${dir} into ${target}: ${manifest.database} database, ${counted(totalRows(manifest.rows), "row")} in ${counted(tables, "table")}, ${counted(keyFiles.length, "key file")}.`,
  ];
  if (manifest.keysFromEnvironment.length > 0)
    lines.push(
      `Set ${manifest.keysFromEnvironment.join(", ")} in the service's environment again, with the values kept with this backup: the backup does not hold them.`,
    );
  return lines;
}
