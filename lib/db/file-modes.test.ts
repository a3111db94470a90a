// The database, its directory, its -wal/-shm files and the generated encryption key are created
// owner-only; a directory or file the operator made keeps its mode, with a warning.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encryptionKey, resetEncryptionKey } from "@/lib/auth/encryption";
import { migrateDatabase } from "@/lib/db/migrate";
import { resetEnv } from "@/lib/env";

const work = mkdtempSync(path.join(tmpdir(), "file-modes-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const modeOf = (target: string) => (statSync(target).mode & 0o777).toString(8);
let count = 0;
const freshDir = () => path.join(work, `fresh${++count}`, "data");

// A umask that takes nothing away, so only the service's own modes stand between the data and other users.
let savedUmask: number;
beforeEach(() => {
  savedUmask = process.umask(0o000);
});
afterEach(() => {
  process.umask(savedUmask);
});

describe("the SQLite database", () => {
  it("a new database file is 0600 in a new 0700 directory, whatever the umask", () => {
    const file = path.join(freshDir(), "app.db");
    migrateDatabase(file);
    expect(modeOf(path.dirname(file))).toBe("700");
    expect(modeOf(file)).toBe("600");
  });

  it("its -wal and -shm files are 0600 too while a connection writes", () => {
    const file = path.join(freshDir(), "app.db");
    migrateDatabase(file);
    const db = new Database(file);
    try {
      db.pragma("journal_mode = WAL");
      db.exec(`CREATE TABLE "probe" ("x" INTEGER); INSERT INTO "probe" VALUES (1);`);
      expect(modeOf(`${file}-wal`)).toBe("600");
      expect(modeOf(`${file}-shm`)).toBe("600");
    } finally {
      db.close();
    }
  });

  it("an existing directory and database file keep the modes the operator gave them, with a warning", () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    const file = path.join(dir, "app.db");
    writeFileSync(file, "", { mode: 0o640 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    migrateDatabase(file);
    expect(modeOf(dir)).toBe("755");
    expect(modeOf(file)).toBe("640");
    const warnings = warn.mock.calls.map(([message]) => String(message));
    expect(
      warnings.some((message) => message.includes(dir) && message.includes("755") && message.includes("chmod 700")),
    ).toBe(true);
    expect(
      warnings.some((message) => message.includes(file) && message.includes("640") && message.includes("chmod 600")),
    ).toBe(true);
  });

  it("an existing owner-only directory and file are used without a word", () => {
    const file = path.join(freshDir(), "app.db");
    migrateDatabase(file);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(migrateDatabase(file)).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("the generated encryption key", () => {
  const saved = process.env.DATABASE_URL;
  afterEach(() => {
    process.env.DATABASE_URL = saved;
    resetEnv();
    resetEncryptionKey();
  });

  it("is 0600 in a new 0700 data directory", () => {
    const dir = freshDir();
    process.env.DATABASE_URL = `file:${path.join(dir, "app.db")}`;
    resetEnv();
    resetEncryptionKey();
    expect(encryptionKey()).toHaveLength(32);
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(path.join(dir, "totp-encryption.key"))).toBe("600");
  });

  it("a key file left readable by others is made 0600 (it is a secret the service owns)", () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keyFile = path.join(dir, "totp-encryption.key");
    writeFileSync(keyFile, `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o644 });
    process.env.DATABASE_URL = `file:${path.join(dir, "app.db")}`;
    resetEnv();
    resetEncryptionKey();
    expect(encryptionKey()).toEqual(Buffer.alloc(32, 7));
    expect(modeOf(keyFile)).toBe("600");
  });
});
