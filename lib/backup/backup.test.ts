// Online backup and restore (lib/backup, scripts/backup.ts, scripts/restore.ts), against the database of
// the half of the suite this runs in: SQLite (a throwaway file) or PostgreSQL (a throwaway database, and
// more of them as restore targets, dropped at the end).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup, describeBackup } from "@/lib/backup/create-backup";
import { MANIFEST_FILE, readManifest } from "@/lib/backup/manifest";
import { serverMajorVersion, toolMajorVersion, versionRefusal } from "@/lib/backup/postgresql";
import { compareContents, databaseContents, describeRestore, restoreBackup } from "@/lib/backup/restore-backup";
import { createPlatform } from "@/lib/accounts/platforms";
import { db, inTransaction } from "@/lib/db";
import { databaseFile, databaseProvider, dataDirectory, env } from "@/lib/env";
import { newId } from "@/lib/ids/generate";

const onPostgresql = databaseProvider() === "postgresql";
const server = process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const scratch = mkdtempSync(path.join(tmpdir(), "pcs-backup-"));
const createdDatabases: string[] = [];

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  if (createdDatabases.length > 0)
    await onServer(server, async (client) => {
      for (const name of createdDatabases) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  rmSync(scratch, { recursive: true, force: true });
});

type Target = { url: string; dataDir: string };

/** Somewhere to restore to that holds nothing: a SQLite file not there yet, or a new empty PostgreSQL database; a data directory not there yet. */
async function emptyTarget(): Promise<Target> {
  const root = mkdtempSync(path.join(scratch, "target-"));
  const dataDir = path.join(root, "data");
  if (!onPostgresql) return { url: `file:${path.join(root, "db", "restored.db")}`, dataDir };
  // Named after the run too, so the suite's own clean-up drops it should this file's afterAll not run.
  const name = `${process.env.PCS_TEST_RUN ?? "pcs_test_solo"}_restore_${randomBytes(6).toString("hex")}`;
  await onServer(server, (client) => client.query(`CREATE DATABASE "${name}"`));
  createdDatabases.push(name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), dataDir };
}

/** The tables of the target's current schema (PostgreSQL), or whether its file exists (SQLite): what "untouched" means. */
async function targetState(target: Target): Promise<string[] | boolean> {
  if (!onPostgresql) return existsSync(databaseFile(target.url));
  return onServer(target.url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()`,
    );
    return rows.map((row) => row.name);
  });
}
const untouched = onPostgresql ? [] : false;

/** The service's own database and data directory, as the CLI would read them. */
const service = () => ({ url: env().DATABASE_URL, dataDir: dataDirectory() });

const newDir = (name: string) => path.join(mkdtempSync(path.join(scratch, "backup-")), name);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const mode = (file: string) => statSync(file).mode & 0o777;

/** An account and its employee, in one transaction: in any consistent snapshot both tables grew by the same number. */
async function writePair(n: number) {
  await inTransaction(async () => {
    const account = await createPlatform({ name: `Writer ${n}` });
    await db().employee.create({
      data: {
        id: newId("emp"),
        accountId: account.id,
        name: `Writer ${n}`,
        email: `writer${n}.${account.id}@example.com`,
        status: "active",
      },
    });
  });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Keeps writing pairs until stopped; `written` counts the committed ones. `done` rejects with its failure, if any. */
function startWriter() {
  const state = { written: 0, stop: false, failed: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      while (!state.stop) {
        await writePair(state.written);
        state.written += 1;
        await nextTurn();
      }
    } catch (error) {
      state.failed = true;
      throw error;
    }
  })();
  // Awaited later (waitForWrites, the finally below); until then a failure is not an unhandled rejection.
  void state.done.catch(() => {});
  return state;
}

/** Waits until `target` pairs are written (or the writer failed: then `done` says why). */
async function waitForWrites(writer: ReturnType<typeof startWriter>, target: number) {
  while (writer.written < target && !writer.failed) await new Promise((resolve) => setTimeout(resolve, 5));
  if (writer.failed) await writer.done;
}

describe("a backup while the service writes", () => {
  let backup: Awaited<ReturnType<typeof createBackup>>;
  /** Accounts less employees, before the writer starts: the writer only adds pairs, so any consistent snapshot shows the same. */
  let difference: number;
  let before: number;
  let after: number;

  beforeAll(async () => {
    difference = (await db().account.count()) - (await db().employee.count());
    const writer = startWriter();
    await waitForWrites(writer, 10);
    before = await db().account.count();
    try {
      backup = await createBackup({ dir: newDir("online"), ...service() });
      const atEnd = writer.written;
      await waitForWrites(writer, atEnd + 5);
    } finally {
      writer.stop = true;
      await writer.done;
    }
    after = await db().account.count();
  }, 180_000);

  it("holds one consistent snapshot, taken between the writer's start and end", () => {
    const rows = backup.manifest.rows;
    expect(rows.Account).toBeGreaterThanOrEqual(before);
    expect(rows.Account).toBeLessThanOrEqual(after);
    // Each pair was one transaction: a snapshot holds both rows of a pair or neither.
    expect(rows.Account! - rows.Employee!).toBe(difference);
    expect(after).toBeGreaterThan(before);
  });

  it("describes the database in its manifest", () => {
    const { manifest } = backup;
    expect(manifest.database).toBe(databaseProvider());
    expect(manifest.version).toBe(JSON.parse(readFileSync("package.json", "utf8")).version);
    expect(Number.isNaN(Date.parse(manifest.createdAt))).toBe(false);
    expect(manifest.migrations.length).toBeGreaterThan(0);
    expect(manifest.migrations).toEqual([...manifest.migrations].sort());
    expect(Object.keys(manifest.rows)).toEqual(Object.keys(manifest.rows).sort());
    expect(Object.keys(manifest.rows)).not.toContain("_migrations");
    expect(Object.keys(manifest.rows).filter((table) => table.startsWith("sqlite_"))).toEqual([]);
    expect(Object.keys(manifest.files)).toContain(onPostgresql ? "database.dump" : "database.sqlite");
    expect(readManifest(path.join(backup.dir, MANIFEST_FILE))).toEqual(manifest);
    expect(describeBackup(backup)[0]).toMatch(
      new RegExp(
        `^Backed up to ${escaped(backup.dir)}: ${databaseProvider()} database, \\d+ rows in \\d+ tables, \\d+ files? and manifest.json\\.$`,
      ),
    );
  });

  it("restores into an empty target with the manifest's rows and migrations", async () => {
    const target = await emptyTarget();
    const restored = await restoreBackup({ dir: backup.dir, ...target });
    const contents = await databaseContents(target.url);
    expect(contents.rows).toEqual(backup.manifest.rows);
    expect(contents.migrations).toEqual(backup.manifest.migrations);
    expect(describeRestore(restored)[0]).toMatch(
      new RegExp(`^Restored ${escaped(backup.dir)} into .+: ${databaseProvider()} database, `),
    );
  });

  it("writes the backup owner-only: the directory 0700, every file 0600", () => {
    expect(mode(backup.dir)).toBe(0o700);
    for (const name of [MANIFEST_FILE, ...Object.keys(backup.manifest.files)])
      expect([name, mode(path.join(backup.dir, name))]).toEqual([name, 0o600]);
  });

  it("refuses to restore into a database that holds data, touching nothing", async () => {
    const dataDir = path.join(mkdtempSync(path.join(scratch, "data-")), "data");
    await expect(restoreBackup({ dir: backup.dir, url: env().DATABASE_URL, dataDir })).rejects.toThrow(
      /already holds (a database|tables)/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it("refuses a backup of the other kind of database before connecting to it", async () => {
    const url = onPostgresql
      ? `file:${path.join(scratch, "never", "created.db")}`
      : "postgresql://nobody@127.0.0.1:1/never";
    await expect(restoreBackup({ dir: backup.dir, url, dataDir: path.join(scratch, "never") })).rejects.toThrow(
      `The backup holds a ${databaseProvider()} database but DATABASE_URL names`,
    );
    expect(existsSync(path.join(scratch, "never"))).toBe(false);
  });

  describe("checksums", () => {
    /** A copy of the backup, changed by `alter`, and what a restore of it into an empty target says. */
    async function restoreAltered(alter: (dir: string) => void) {
      const copy = newDir("altered");
      cpSync(backup.dir, copy, { recursive: true });
      alter(copy);
      const target = await emptyTarget();
      const outcome = await restoreBackup({ dir: copy, ...target }).then(
        () => "restored",
        (error: Error) => error.message,
      );
      expect(await targetState(target)).toEqual(untouched);
      expect(existsSync(target.dataDir)).toBe(false);
      return { copy, outcome };
    }

    const flipByte = (file: string) => {
      const bytes = readFileSync(file);
      const at = Math.floor(bytes.length / 2);
      bytes[at] = bytes[at]! ^ 0x01;
      writeFileSync(file, bytes);
    };

    it("refuses a database file with one byte changed, naming it, and leaves the target untouched", async () => {
      const name = onPostgresql ? "database.dump" : "database.sqlite";
      const { copy, outcome } = await restoreAltered((dir) => flipByte(path.join(dir, name)));
      expect(outcome).toBe(
        `${path.join(copy, name)} does not match its SHA-256 in manifest.json: the backup was altered or damaged; refusing to restore`,
      );
    });

    it("refuses a missing file, an unlisted one and a backup without its manifest", async () => {
      const name = onPostgresql ? "database.dump" : "database.sqlite";
      const missing = await restoreAltered((dir) => rmSync(path.join(dir, name)));
      expect(missing.outcome).toBe(`${path.join(missing.copy, name)} is missing from the backup: refusing to restore`);
      const other = onPostgresql ? "database.sqlite" : "database.dump";
      const extra = await restoreAltered((dir) => writeFileSync(path.join(dir, other), "extra"));
      expect(extra.outcome).toBe(`${path.join(extra.copy, other)} is not listed in manifest.json: refusing to restore`);
      const unfinished = await restoreAltered((dir) => rmSync(path.join(dir, MANIFEST_FILE)));
      expect(unfinished.outcome).toMatch(/holds no manifest\.json: not a complete backup/);
    });
  });
});

describe("the count after a restore", () => {
  it("fails loudly naming the table whose rows differ from the manifest's", () => {
    const manifest = { migrations: ["one"], rows: { Account: 3, Employee: 2 } };
    expect(() => compareContents(manifest, manifest)).not.toThrow();
    expect(() => compareContents(manifest, { migrations: ["one"], rows: { Account: 3, Employee: 1 } })).toThrow(
      "The restored database differs from the backup: table Employee has 1 row, the manifest says 2",
    );
    expect(() => compareContents(manifest, { migrations: ["one"], rows: { Account: 3 } })).toThrow(
      "table Employee has no rows, the manifest says 2",
    );
    expect(() => compareContents(manifest, { migrations: [], rows: manifest.rows })).toThrow(
      "its applied migrations are not the manifest's",
    );
  });
});

describe("the backup directory", () => {
  it("must be new or empty: a directory holding anything is refused and left as it was", async () => {
    const dir = newDir("full");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "other.txt"), "theirs");
    await expect(createBackup({ dir, ...service() })).rejects.toThrow(`${dir} is not empty`);
    expect(readdirSync(dir)).toEqual(["other.txt"]);
  });

  it("may be an existing empty directory, which ends up 0700", async () => {
    const dir = newDir("empty");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const { manifest } = await createBackup({ dir, ...service() });
    expect(mode(dir)).toBe(0o700);
    expect(readdirSync(dir).sort()).toEqual([...Object.keys(manifest.files), MANIFEST_FILE].sort());
    // Nothing left beside it: the hidden directory it was written in became it.
    expect(readdirSync(path.dirname(dir))).toEqual(["empty"]);
  });
});

describe("keys", () => {
  const keyValue = randomBytes(32).toString("hex");
  const previousValue = randomBytes(32).toString("base64");
  const source = path.join(scratch, "keys-source");
  let backup: Awaited<ReturnType<typeof createBackup>>;

  beforeAll(async () => {
    mkdirSync(source, { mode: 0o700 });
    writeFileSync(path.join(source, "totp-encryption.key"), "totp key bytes", { mode: 0o600 });
    writeFileSync(path.join(source, "audit-signing.key"), "audit key bytes", { mode: 0o600 });
    writeFileSync(path.join(source, "encryption.key"), "new name's bytes", { mode: 0o600 });
    writeFileSync(path.join(source, "setup-token"), "the setup token", { mode: 0o600 });
    writeFileSync(path.join(source, ".encryption.key.1234.tmp"), "half-written", { mode: 0o600 });
    backup = await createBackup({
      dir: newDir("keys"),
      url: env().DATABASE_URL,
      dataDir: source,
      environment: {
        TOTP_ENCRYPTION_KEY: keyValue,
        ENCRYPTION_KEYS_PREVIOUS: previousValue,
        AUDIT_SIGNING_KEY: "",
        OTHER_KEY: "x",
      },
    });
  });

  it("copies every *.key file of the data directory, never the setup token", () => {
    expect(readdirSync(path.join(backup.dir, "keys")).sort()).toEqual([
      "audit-signing.key",
      "encryption.key",
      "totp-encryption.key",
    ]);
    expect(mode(path.join(backup.dir, "keys"))).toBe(0o700);
    expect(mode(path.join(backup.dir, "keys", "totp-encryption.key"))).toBe(0o600);
    expect(Object.keys(backup.manifest.files).filter((name) => name.startsWith("keys/"))).toEqual([
      "keys/audit-signing.key",
      "keys/encryption.key",
      "keys/totp-encryption.key",
    ]);
  });

  it("names the key variables set in the environment, never their values", () => {
    expect(backup.manifest.keysFromEnvironment).toEqual(["TOTP_ENCRYPTION_KEY", "ENCRYPTION_KEYS_PREVIOUS"]);
    const secrets = [keyValue, Buffer.from(keyValue, "hex"), previousValue, Buffer.from(previousValue, "base64")];
    for (const name of [MANIFEST_FILE, ...Object.keys(backup.manifest.files)]) {
      const bytes = readFileSync(path.join(backup.dir, name));
      expect([name, secrets.filter((secret) => bytes.includes(secret))]).toEqual([name, []]);
    }
    expect(describeBackup(backup)[1]).toBe(
      "Not in the backup: TOTP_ENCRYPTION_KEY, ENCRYPTION_KEYS_PREVIOUS, set in the environment. Keep their values with this backup: a restore needs them set again.",
    );
  });

  it("restores the key files into a new data directory (0700, files 0600) and reminds of the environment's", async () => {
    const target = await emptyTarget();
    const restored = await restoreBackup({ dir: backup.dir, ...target });
    expect(
      readdirSync(target.dataDir)
        .filter((name) => name.endsWith(".key"))
        .sort(),
    ).toEqual(restored.keyFiles.sort());
    expect(readFileSync(path.join(target.dataDir, "totp-encryption.key"), "utf8")).toBe("totp key bytes");
    expect(existsSync(path.join(target.dataDir, "setup-token"))).toBe(false);
    expect(mode(target.dataDir)).toBe(0o700);
    for (const name of restored.keyFiles) expect([name, mode(path.join(target.dataDir, name))]).toEqual([name, 0o600]);
    if (!onPostgresql) expect(mode(databaseFile(target.url))).toBe(0o600);
    expect(describeRestore(restored)[1]).toBe(
      "Set TOTP_ENCRYPTION_KEY, ENCRYPTION_KEYS_PREVIOUS in the service's environment again, with the values kept with this backup: the backup does not hold them.",
    );
  });

  it("refuses to restore over a key file that exists, before touching the database", async () => {
    const target = await emptyTarget();
    mkdirSync(target.dataDir, { mode: 0o700 });
    writeFileSync(path.join(target.dataDir, "audit-signing.key"), "another key", { mode: 0o600 });
    await expect(restoreBackup({ dir: backup.dir, ...target })).rejects.toThrow(
      `${path.join(target.dataDir, "audit-signing.key")} already exists`,
    );
    expect(readFileSync(path.join(target.dataDir, "audit-signing.key"), "utf8")).toBe("another key");
    expect(await targetState(target)).toEqual(untouched);
  });
});

describe.runIf(!onPostgresql)("a SQLite target", () => {
  let dir: string;
  beforeAll(async () => {
    dir = (await createBackup({ dir: newDir("sqlite"), ...service() })).dir;
  });

  it("may be an existing empty file", async () => {
    const target = await emptyTarget();
    mkdirSync(path.dirname(databaseFile(target.url)), { mode: 0o700 });
    writeFileSync(databaseFile(target.url), "", { mode: 0o600 });
    await restoreBackup({ dir, ...target });
    expect(statSync(databaseFile(target.url)).size).toBeGreaterThan(0);
  });

  it("is refused when empty but with a -wal file beside it: a process may have it open", async () => {
    const target = await emptyTarget();
    const file = databaseFile(target.url);
    mkdirSync(path.dirname(file), { mode: 0o700 });
    writeFileSync(file, "", { mode: 0o600 });
    writeFileSync(`${file}-wal`, "someone's log", { mode: 0o600 });
    await expect(restoreBackup({ dir, ...target })).rejects.toThrow(
      `${file}-wal lie beside ${file}: a process may be using that database`,
    );
    expect(statSync(file).size).toBe(0);
    // Left as it was (its size, not its bytes: what lies in a -wal file is SQLite's business).
    expect(statSync(`${file}-wal`).size).toBe("someone's log".length);
  });

  it("that does not exist is refused while stale -wal and -shm files lie beside its name, and they are left alone", async () => {
    const target = await emptyTarget();
    const file = databaseFile(target.url);
    mkdirSync(path.dirname(file), { mode: 0o700 });
    writeFileSync(`${file}-wal`, randomBytes(8192));
    writeFileSync(`${file}-shm`, randomBytes(32768));
    await expect(restoreBackup({ dir, ...target })).rejects.toThrow(`${file}-wal, ${file}-shm lie beside ${file}`);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}-wal`).size).toBe(8192);
    rmSync(`${file}-wal`);
    rmSync(`${file}-shm`);
    await restoreBackup({ dir, ...target });
    expect((await databaseContents(target.url)).rows).toEqual(readManifest(path.join(dir, MANIFEST_FILE)).rows);
  });
});

describe("the PostgreSQL client tools' version", () => {
  it("reads the major version of the server and of a tool", () => {
    expect(serverMajorVersion("150020")).toBe("15");
    expect(serverMajorVersion(170000)).toBe("17");
    expect(serverMajorVersion("90624")).toBe("9.6");
    expect(toolMajorVersion("pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n")).toBe("15");
    expect(toolMajorVersion("pg_dump (PostgreSQL) 18beta1")).toBe("18");
    expect(toolMajorVersion("pg_restore (PostgreSQL) 9.6.24")).toBe("9.6");
    expect(toolMajorVersion("something else 15.2")).toBeNull();
  });

  it("accepts the server's major version only, naming both versions otherwise", () => {
    expect(versionRefusal("pg_dump", "pg_dump (PostgreSQL) 15.20", "150004")).toBeNull();
    expect(versionRefusal("pg_restore", "pg_restore (PostgreSQL) 16.1", "160009")).toBeNull();
    expect(versionRefusal("pg_dump", "pg_dump (PostgreSQL) 14.9", "150004")).toBe(
      "pg_dump is version 14 but the PostgreSQL server is version 15: refused, an older pg_dump cannot dump a newer server; install PostgreSQL's client tools, version 15, the server's major version (first on PATH)",
    );
    expect(versionRefusal("pg_dump", "pg_dump (PostgreSQL) 16.2", "150004")).toMatch(
      /^pg_dump is version 16 but the PostgreSQL server is version 15: refused, a newer pg_dump writes archives an older pg_restore cannot read; /,
    );
    expect(versionRefusal("pg_restore", "pg_restore (PostgreSQL) 17.0", "150004")).toMatch(
      /^pg_restore is version 17 but the PostgreSQL server is version 15: refused/,
    );
    expect(versionRefusal("pg_dump", "not a version", "150004")).toMatch(/^pg_dump printed no PostgreSQL version/);
  });

  describe.runIf(onPostgresql)("on PostgreSQL", () => {
    /** Runs `work` with PATH replaced, so the tools found are `dir`'s. */
    async function withPath<T>(dir: string, work: () => Promise<T>): Promise<T> {
      const saved = process.env.PATH;
      process.env.PATH = dir;
      try {
        return await work();
      } finally {
        process.env.PATH = saved;
      }
    }

    it("refuses a pg_dump of another major version, naming both, and leaves no backup", async () => {
      const bin = mkdtempSync(path.join(scratch, "bin-"));
      writeFileSync(path.join(bin, "pg_dump"), '#!/bin/sh\necho "pg_dump (PostgreSQL) 99.1"\n', { mode: 0o755 });
      const dir = newDir("other-version");
      const major = await onServer(env().DATABASE_URL, async (client) =>
        serverMajorVersion(
          (await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]!.v,
        ),
      );
      await expect(withPath(bin, () => createBackup({ dir, ...service() }))).rejects.toThrow(
        `pg_dump is version 99 but the PostgreSQL server is version ${major}: refused`,
      );
      expect(readdirSync(path.dirname(dir))).toEqual([]);
    });

    it("says how to get pg_dump when there is none", async () => {
      const empty = mkdtempSync(path.join(scratch, "no-bin-"));
      const dir = newDir("no-pg-dump");
      await expect(withPath(empty, () => createBackup({ dir, ...service() }))).rejects.toThrow(
        /^pg_dump not found: install PostgreSQL's client tools, version \d+, the server's major version$/,
      );
      expect(readdirSync(path.dirname(dir))).toEqual([]);
    });
  });
});

describe("scripts/backup.ts and scripts/restore.ts", () => {
  function cli(script: "backup" | "restore", args: string[], environment: Record<string, string> = {}) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      // What `npx tsx` runs, without npm's own start-up (as lib/audit/seal/verify.test.ts does).
      execFile(
        path.join(process.cwd(), "node_modules", ".bin", "tsx"),
        [`scripts/${script}.ts`, ...args],
        { env: { ...process.env, ...environment }, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
      );
    });
  }

  // Each run starts a process that loads TypeScript: minutes, not seconds, on a slow machine under load.
  it("exit 2 with the usage on a wrong command line, 1 with one line on a refusal", { timeout: 300_000 }, async () => {
    const usage = await cli("backup", []);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: npm run backup -- <directory: new or empty>");
    const dir = newDir("taken");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "x"), "x");
    const refused = await cli("backup", [dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Backup failed: ${dir} is not empty: a backup goes into a new or empty directory, never over another\n`,
    );
    const restoreUsage = await cli("restore", ["one", "two"]);
    expect(restoreUsage.code).toBe(2);
    expect(restoreUsage.stderr).toContain("usage: npm run restore -- <backup directory>");
  });

  it(
    "back up the configured database and restore it, naming the keys left in the environment",
    { timeout: 300_000 },
    async () => {
      const dir = newDir("cli");
      const dataDir = mkdtempSync(path.join(scratch, "cli-data-"));
      writeFileSync(path.join(dataDir, "totp-encryption.key"), "k", { mode: 0o600 });
      const value = randomBytes(32).toString("hex");
      const backedUp = await cli("backup", [dir], { DATA_DIR: dataDir, TOTP_ENCRYPTION_KEY: value });
      expect(backedUp.stderr).toBe("");
      expect(backedUp.code).toBe(0);
      const lines = backedUp.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(
        new RegExp(
          `^Backed up to ${escaped(dir)}: ${databaseProvider()} database, \\d+ rows in \\d+ tables, 2 files and manifest.json\\.$`,
        ),
      );
      expect(lines[1]).toContain("Not in the backup: TOTP_ENCRYPTION_KEY, set in the environment.");
      expect(backedUp.stdout).not.toContain(value);
      expect(readManifest(path.join(dir, MANIFEST_FILE)).keysFromEnvironment).toEqual(["TOTP_ENCRYPTION_KEY"]);

      const target = await emptyTarget();
      const restored = await cli("restore", [dir], { DATABASE_URL: target.url, DATA_DIR: target.dataDir });
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(
        new RegExp(
          `^Restored ${escaped(dir)} into .+, 1 key file\\.\nSet TOTP_ENCRYPTION_KEY in the service's environment again`,
        ),
      );
      expect(readFileSync(path.join(target.dataDir, "totp-encryption.key"), "utf8")).toBe("k");
    },
  );
});
