import { parseArgs } from "node:util";
import { BackupError } from "@/lib/backup/backup-error";
import { withoutSecrets } from "@/lib/db/reachability";

// The command line of `npm run backup` and `npm run restore`: one directory argument; the lines to print on
// success (exit 0); one line on a refusal or failure (exit 1); the message and the usage on a usage error (2).

class UsageError extends Error {}

export type DirectoryCommand = {
  /** "Backup" or "Restore", as a failure's line begins. */
  name: string;
  usage: string;
  /** What to say when not exactly one directory is named. */
  nameOne: string;
  /** The work on the named directory; the lines to print. */
  run: (dir: string) => Promise<string[]>;
};

function directoryOf(argv: string[], nameOne: string): string {
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new UsageError(nameOne);
    return positionals[0]!;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

/** Runs `command` on the process's arguments and sets the exit code. */
export async function runDirectoryCommand(command: DirectoryCommand, argv = process.argv.slice(2)): Promise<void> {
  try {
    for (const line of await command.run(directoryOf(argv, command.nameOne))) console.log(line);
    process.exitCode = 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${command.usage}`);
      process.exitCode = 2;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const line = message.replace(/\s*[\r\n]+\s*/g, " ").trim();
    // A BackupError names the database without its password already; anything else may quote DATABASE_URL.
    const shown = error instanceof BackupError ? line : withoutSecrets(line, process.env.DATABASE_URL ?? "");
    console.error(`${command.name} failed: ${shown}`);
    process.exitCode = 1;
  }
}
