import { existsSync } from "node:fs";
import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";
import { entriesUnder, isRegularFile, sha256OfFile } from "@/lib/backup/files";
import {
  databaseFileOf,
  MANIFEST_FILE,
  POSTGRESQL_FILE,
  readManifest,
  SQLITE_FILE,
  type Manifest,
} from "@/lib/backup/manifest";

/**
 * The manifest of the backup in `dir`, once every file it lists is there and matches its SHA-256, and no
 * file is there it does not list; otherwise a BackupError naming the first file that is wrong. Reads only.
 */
export function verifyBackup(dir: string): Manifest {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!existsSync(dir)) throw new BackupError(`${dir} does not exist`);
  if (!existsSync(manifestFile))
    throw new BackupError(`${dir} holds no ${MANIFEST_FILE}: not a complete backup (one that failed leaves none)`);
  const manifest = readManifest(manifestFile);
  const own = databaseFileOf(manifest.database);
  const other = own === SQLITE_FILE ? POSTGRESQL_FILE : SQLITE_FILE;
  if (!Object.hasOwn(manifest.files, own))
    throw new BackupError(`${manifestFile} lists no ${own}: refusing to restore`);
  if (Object.hasOwn(manifest.files, other))
    throw new BackupError(`${manifestFile} lists ${other} in a ${manifest.database} backup: refusing to restore`);
  const unlisted = entriesUnder(dir).find((name) => name !== MANIFEST_FILE && !Object.hasOwn(manifest.files, name));
  if (unlisted !== undefined)
    throw new BackupError(`${path.join(dir, unlisted)} is not listed in ${MANIFEST_FILE}: refusing to restore`);
  for (const [name, expected] of Object.entries(manifest.files)) {
    const file = path.join(dir, name);
    if (!existsSync(file)) throw new BackupError(`${file} is missing from the backup: refusing to restore`);
    if (!isRegularFile(file)) throw new BackupError(`${file} is not a regular file: refusing to restore`);
    if (sha256OfFile(file) !== expected)
      throw new BackupError(
        `${file} does not match its SHA-256 in ${MANIFEST_FILE}: the backup was altered or damaged; refusing to restore`,
      );
  }
  return manifest;
}
