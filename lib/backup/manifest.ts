import { readFileSync } from "node:fs";
import { z } from "zod";
import { BackupError } from "@/lib/backup/backup-error";

// What a backup directory holds, and the one file (manifest.json) that says so: written last, so a backup
// without it is an unfinished one and never restorable. Each file's SHA-256 is in it; a restore checks them
// all, and every name against the short list below, before it touches anything.

export const MANIFEST_FILE = "manifest.json";
export const SQLITE_FILE = "database.sqlite";
export const POSTGRESQL_FILE = "database.dump";
export const KEYS_DIRECTORY = "keys";

/**
 * The variables that may hold keys instead of the data directory's files: the backup lists which were set,
 * never their values. ENCRYPTION_KEYS_PREVIOUS too: a backup made during a key rotation holds secrets still
 * under an earlier key.
 */
export const ENVIRONMENT_KEYS = [
  "ENCRYPTION_KEY",
  "TOTP_ENCRYPTION_KEY",
  "ENCRYPTION_KEYS_PREVIOUS",
  "AUDIT_SIGNING_KEY",
] as const;

export type DatabaseKind = "sqlite" | "postgresql";

/** What a database holds, as a manifest records it: the migrations applied, in order, and each table's rows. */
export type DatabaseContents = { migrations: string[]; rows: Record<string, number> };

/** A key file of the data directory: `<name>.key`, not hidden (the service's temporary files start with a dot). */
export const isKeyFileName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]*\.key$/.test(name);

export const databaseFileOf = (kind: DatabaseKind) => (kind === "sqlite" ? SQLITE_FILE : POSTGRESQL_FILE);

/** The only paths a backup may name: its database file and `keys/<name>.key`; never `..` or an absolute path. */
export function isBackupPath(relative: string): boolean {
  if (relative === SQLITE_FILE || relative === POSTGRESQL_FILE) return true;
  const [folder, name, ...rest] = relative.split("/");
  return folder === KEYS_DIRECTORY && rest.length === 0 && name !== undefined && isKeyFileName(name);
}

const manifestSchema = z.object({
  createdAt: z.iso.datetime(),
  version: z.string(),
  database: z.enum(["sqlite", "postgresql"]),
  migrations: z.array(z.string()),
  rows: z.record(z.string(), z.number().int().min(0)),
  files: z.record(
    z.string().refine(isBackupPath, "is not a file a backup holds"),
    z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex"),
  ),
  keysFromEnvironment: z.array(z.string().regex(/^[A-Z][A-Z0-9_]*$/)),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The manifest in `file`; a BackupError naming the file and the first problem when it cannot be read as one. */
export function readManifest(file: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "not JSON";
    throw new BackupError(`${file} cannot be read as a backup manifest (${reason}): refusing to restore`);
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map(String).join(".") || "(the whole file)";
    throw new BackupError(`${file} is not a valid backup manifest: ${where}: ${issue.message}; refusing to restore`);
  }
  return parsed.data;
}

/** The manifest as written: two-space JSON, its keys in the order the type lists them. */
export const formatManifest = (manifest: Manifest) => `${JSON.stringify(manifest, null, 2)}\n`;

export const totalRows = (rows: Record<string, number>) => Object.values(rows).reduce((sum, count) => sum + count, 0);

/** "1 row", "2 rows". */
export const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
