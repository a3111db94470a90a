// `npm run backup -- <dir>`: an online backup of the configured database (DATABASE_URL, SQLite or
// PostgreSQL; the service may keep running and writing) and of the data directory's key files (DATA_DIR)
// into the new or empty directory <dir>, with a manifest.json of checksums and row counts (lib/backup).
// Prints one line saying what went where (and one more naming the keys set in the environment, which are
// not in the backup) and exits 0; a failure prints one line and exits 1; a usage error exits 2.
import { runDirectoryCommand } from "../lib/backup/command";
import { createBackup, describeBackup } from "../lib/backup/create-backup";
import { dataDirectory, env } from "../lib/env";

void runDirectoryCommand({
  name: "Backup",
  usage: "usage: npm run backup -- <directory: new or empty>",
  nameOne: "name one directory to back up into",
  run: async (dir) => describeBackup(await createBackup({ dir, url: env().DATABASE_URL, dataDir: dataDirectory() })),
});
