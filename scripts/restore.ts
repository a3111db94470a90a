// `npm run restore -- <dir>`: restores a backup that `npm run backup` wrote into the configured database
// (DATABASE_URL: a SQLite file that does not exist yet, or an empty PostgreSQL database) and its key files
// into the data directory (DATA_DIR), with the service stopped. Every file is checked against the
// manifest's checksums, and the target against holding data, before anything is written; the restored
// rows are counted against the manifest after. Prints one line saying what went where (and one more naming
// the keys to set in the environment again) and exits 0; a refusal or failure prints one line and exits 1;
// a usage error exits 2.
import { runDirectoryCommand } from "../lib/backup/command";
import { restoreBackup, describeRestore } from "../lib/backup/restore-backup";
import { dataDirectory, env } from "../lib/env";

void runDirectoryCommand({
  name: "Restore",
  usage: "usage: npm run restore -- <backup directory>",
  nameOne: "name one backup directory to restore",
  run: async (dir) => describeRestore(await restoreBackup({ dir, url: env().DATABASE_URL, dataDir: dataDirectory() })),
});
