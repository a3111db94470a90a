import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";
import { ENVIRONMENT_KEYS, isKeyFileName } from "@/lib/backup/manifest";

// The keys a restored database needs: without the key that encrypted its TOTP secrets and its audit signing
// key, a restore brings back data nobody can use. Keys kept as files in the data directory go into the
// backup; keys given as environment variables are named in the manifest, never copied (their values live
// wherever the operator keeps the service's environment, and must be kept with the backup).
// The setup token is never copied: it only matters before the first employee exists.

/** The key files (`<name>.key`) in the data directory `dataDir`, by name; none when it does not exist. */
export function keyFilesIn(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => isKeyFileName(name) && statSync(path.join(dataDir, name)).isFile())
    .sort();
}

/** Which of the key variables are set (not empty) in `environment`: names only. */
export function keysSetInEnvironment(environment: Record<string, string | undefined>): string[] {
  return ENVIRONMENT_KEYS.filter((name) => Boolean(environment[name]));
}

/** Refuses when a key file the restore would write already exists in `dataDir`: never overwrite a key. */
export function checkKeyTargets(dataDir: string, names: string[]) {
  const present = names.filter((name) => existsSync(path.join(dataDir, name)));
  if (present.length === 0) return;
  const files = present.map((name) => path.join(dataDir, name)).join(", ");
  throw new BackupError(
    `${files} already exist${present.length === 1 ? "s" : ""}: a restore never replaces a key; move it away first`,
  );
}
