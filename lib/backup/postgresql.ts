import { spawn } from "node:child_process";
import { chmodSync } from "node:fs";
import pg from "pg";
import { BackupError } from "@/lib/backup/backup-error";
import { writeOwnerOnlyFile } from "@/lib/backup/files";
import type { DatabaseContents } from "@/lib/backup/manifest";
import { describeDatabaseUrl, withoutSecrets } from "@/lib/db/reachability";

// PostgreSQL's side of a backup: pg_dump and pg_restore, of the server's own major version only, and the
// row counts read in the very snapshot pg_dump dumps (exported from a transaction of ours that stays open
// while pg_dump runs), so the manifest describes exactly what the archive holds.

export type PostgresqlTool = "pg_dump" | "pg_restore";

const CONNECT_TIMEOUT_MS = 10_000;

/** The relations of the current schema that hold rows of their own: tables and partitioned tables. */
const TABLES = `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`;

/** The server's major version from server_version_num: 150020 -> "15"; before 10 a major had two parts (90624 -> "9.6"). */
export function serverMajorVersion(versionNum: string | number): string {
  const value = Number(versionNum);
  return value >= 100_000
    ? String(Math.floor(value / 10_000))
    : `${Math.floor(value / 10_000)}.${Math.floor(value / 100) % 100}`;
}

/** The major version in a tool's `--version` line ("pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)" -> "15"), or null. */
export function toolMajorVersion(versionLine: string): string | null {
  const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(versionLine);
  if (!match) return null;
  return Number(match[1]) >= 10 ? match[1]! : `${match[1]}.${match[2] ?? "0"}`;
}

/**
 * Why `tool`, whose `--version` printed `versionLine`, must not be used with the server of
 * `serverVersionNum`; null when it may. Only the server's own major version may: an older pg_dump cannot
 * dump a newer server, and a newer one writes archives an older pg_restore cannot read, so any difference
 * is refused rather than found out on the day of a restore.
 */
export function versionRefusal(tool: PostgresqlTool, versionLine: string, serverVersionNum: string | number) {
  const server = serverMajorVersion(serverVersionNum);
  const client = toolMajorVersion(versionLine);
  const remedy = `install PostgreSQL's client tools, version ${server}, the server's major version (first on PATH)`;
  if (client === null) return `${tool} printed no PostgreSQL version ("${versionLine.trim()}"): ${remedy}`;
  if (client === server) return null;
  const older = Number(client) < Number(server);
  const why =
    tool === "pg_dump"
      ? older
        ? "an older pg_dump cannot dump a newer server"
        : "a newer pg_dump writes archives an older pg_restore cannot read"
      : older
        ? "an older pg_restore cannot read archives of a newer pg_dump"
        : "a newer pg_restore may send statements an older server does not know";
  return `${tool} is version ${client} but the PostgreSQL server is version ${server}: refused, ${why}; ${remedy}`;
}

/**
 * The URL to hand a tool as --dbname, with its password moved to PGPASSWORD: a command line is visible to
 * every user of the machine (ps), a process's environment only to its owner.
 */
function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : parsed.searchParams.get("password");
  if (!password) return { dbname: url, env: process.env };
  parsed.password = "";
  parsed.searchParams.delete("password");
  return { dbname: parsed.href, env: { ...process.env, PGPASSWORD: password } };
}

/** Runs a PostgreSQL client tool; its standard output, or a BackupError with its last words on one line. */
function runTool(tool: PostgresqlTool, args: string[], url: string, server?: string): Promise<string> {
  const { env } = toolConnection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") return reject(error);
      const version = server ? `, version ${server}, the server's major version` : "";
      reject(new BackupError(`${tool} not found: install PostgreSQL's client tools${version}`));
    });
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(stdout);
      const words =
        stderr
          .replace(/\s*[\r\n]+\s*/g, " ")
          .trim()
          .slice(-600) || "no message";
      reject(new BackupError(`${tool} failed (${signal ?? `exit code ${code}`}): ${withoutSecrets(words, url)}`));
    });
  });
}

/** A connected client, or a BackupError naming the database (password hidden) and why not. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection the server drops between two queries fails the next query; it must not end the process.
  client.on("error", () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    const reason = withoutSecrets((error as Error).message, url);
    throw new BackupError(`PostgreSQL database ${describeDatabaseUrl(url)} cannot be used: ${reason}`);
  }
}

/** Checks that `tool` is there and of the server's major version; that major version. */
async function checkTool(client: pg.Client, tool: PostgresqlTool, url: string): Promise<string> {
  const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
  const versionNum = rows[0]!.server_version_num;
  const line = await runTool(tool, ["--version"], url, serverMajorVersion(versionNum));
  const refusal = versionRefusal(tool, line, versionNum);
  if (refusal) throw new BackupError(refusal);
  return serverMajorVersion(versionNum);
}

/** The migrations applied (in the order applied) and every table's rows, in the current schema, read on `client`. */
async function contentsOn(client: pg.Client): Promise<DatabaseContents> {
  const names = (await client.query<{ name: string }>(TABLES)).rows.map((row) => row.name);
  const rows: Record<string, number> = {};
  for (const name of names.filter((table) => table !== "_migrations").sort()) {
    const counted = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${client.escapeIdentifier(name)}`,
    );
    rows[name] = Number(counted.rows[0]!.count);
  }
  const migrations = names.includes("_migrations")
    ? (await client.query<{ name: string }>(`SELECT name FROM "_migrations" ORDER BY "appliedAt", name`)).rows.map(
        (row) => row.name,
      )
    : [];
  return { migrations, rows };
}

/** The migrations and row counts of the PostgreSQL database `url` names, read in one snapshot. */
export async function postgresqlContents(url: string): Promise<DatabaseContents> {
  const client = await connect(url);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const contents = await contentsOn(client);
    await client.query("COMMIT");
    return contents;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Dumps the database `url` names into the new file `destination` (pg_dump's custom format, mode 0600) while
 * the service keeps writing; its migrations and row counts, counted in the snapshot pg_dump dumps.
 */
export async function backupPostgresql(url: string, destination: string): Promise<DatabaseContents> {
  const client = await connect(url);
  try {
    await checkTool(client, "pg_dump", url);
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await client.query<{ snapshot: string }>("SELECT pg_export_snapshot() AS snapshot");
    const contents = await contentsOn(client);
    writeOwnerOnlyFile(destination, "");
    const { dbname } = toolConnection(url);
    // The snapshot lives as long as this transaction: it stays open until pg_dump is done.
    await runTool(
      "pg_dump",
      [`--snapshot=${rows[0]!.snapshot}`, "--format=custom", `--file=${destination}`, `--dbname=${dbname}`],
      url,
    );
    chmodSync(destination, 0o600);
    await client.query("COMMIT");
    return contents;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Checks, before anything is restored, that the database `url` names may take a restore: its current schema
 * holds no table, view or sequence (an existing empty database is the only target; nothing is created), and
 * pg_restore is there, of the server's major version.
 */
export async function checkPostgresqlTarget(url: string): Promise<void> {
  const client = await connect(url);
  try {
    const { rows } = await client.query<{ schema: string | null; relations: number }>(
      `SELECT current_schema() AS schema, (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')) AS relations`,
    );
    const { schema, relations } = rows[0]!;
    const where = `PostgreSQL database ${describeDatabaseUrl(url)}`;
    if (schema === null) throw new BackupError(`${where} has no current schema (none of its search_path exists)`);
    if (relations > 0)
      throw new BackupError(
        `${where} already holds tables in schema ${schema}: restore only into an empty database (create a new one, or drop this one's tables first)`,
      );
    await checkTool(client, "pg_restore", url);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Restores the archive `dump` into the (checked, empty) database `url` names, all in one transaction. */
export async function restorePostgresql(url: string, dump: string): Promise<void> {
  const { dbname } = toolConnection(url);
  const args = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${dbname}`, dump];
  await runTool("pg_restore", args, url);
}
