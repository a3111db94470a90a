// The WAL index's header (lib/db/wal-index.ts), on SQLite files of this test's own, whichever database the suite runs on.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeWalIndex, openWalIndex, walIndexHeader, type WalIndex } from "@/lib/db/wal-index";

const dir = mkdtempSync(path.join(tmpdir(), "pcs-wal-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A database in WAL mode with a table, its writer, and a reader that has read (so the -shm file is there). */
function walDatabase() {
  const file = path.join(dir, `db-${(files += 1)}.db`);
  const writer = new Database(file);
  writer.pragma("journal_mode = WAL");
  writer.exec("CREATE TABLE t (x)");
  const reader = new Database(file, { readonly: true });
  reader.prepare("SELECT count(*) FROM t").get();
  return { file, writer, reader };
}

const header = (index: WalIndex) => {
  const view = walIndexHeader(index);
  return view && Buffer.from(view);
};

describe("the WAL index's header", () => {
  it("is the same while nothing is committed, and changes with every commit, by any connection", () => {
    const { file, writer, reader } = walDatabase();
    const index = openWalIndex(file)!;
    const first = header(index);
    expect(first).not.toBeNull();
    expect(header(index)).toEqual(first);
    reader.prepare("SELECT * FROM t").all();
    expect(header(index)).toEqual(first);
    const seen = [first];
    for (let i = 0; i < 5; i += 1) {
      const other = new Database(file);
      other.prepare("INSERT INTO t VALUES (?)").run(i);
      other.close();
      writer.prepare("INSERT INTO t VALUES (?)").run(i);
      const now = header(index);
      expect(seen).not.toContainEqual(now);
      seen.push(now);
    }
    closeWalIndex(index);
    reader.close();
    writer.close();
  });

  it("changes when a checkpoint starts the WAL over and the next commit writes from its start", () => {
    const { file, writer, reader } = walDatabase();
    const index = openWalIndex(file)!;
    writer.prepare("INSERT INTO t VALUES (1)").run();
    const before = header(index);
    writer.pragma("wal_checkpoint(TRUNCATE)");
    writer.prepare("INSERT INTO t VALUES (2)").run();
    expect(header(index)).not.toBeNull();
    expect(header(index)).not.toEqual(before);
    closeWalIndex(index);
    reader.close();
    writer.close();
  });

  it("is not there for a database outside WAL mode", () => {
    const file = path.join(dir, "rollback.db");
    const db = new Database(file);
    db.exec("CREATE TABLE t (x)");
    expect(openWalIndex(file)).toBeNull();
    db.close();
  });

  it("cannot be relied on, so reads as null, while its two copies differ, before it is written, or in a format it does not know", () => {
    const { file, writer, reader } = walDatabase();
    const own = openWalIndex(file)!;
    const real = header(own)!;
    closeWalIndex(own);
    const fake = path.join(dir, "fake.db");
    const opened: WalIndex[] = [];
    const index = (bytes: Buffer) => {
      writeFileSync(`${fake}-shm`, bytes);
      opened.push(openWalIndex(fake)!);
      return opened.at(-1)!;
    };
    expect(header(index(Buffer.concat([real, real])))).toEqual(real);
    const changed = Buffer.from(real);
    changed.writeUInt32LE(changed.readUInt32LE(16) + 1, 16); // mxFrame: a commit half-way through being written
    expect(header(index(Buffer.concat([real, changed])))).toBeNull();
    const uninitialised = Buffer.from(real);
    uninitialised[12] = 0;
    expect(header(index(Buffer.concat([uninitialised, uninitialised])))).toBeNull();
    const otherVersion = Buffer.from(real);
    otherVersion.writeUInt32LE(3_999_000, 0);
    expect(header(index(Buffer.concat([otherVersion, otherVersion])))).toBeNull();
    expect(header(index(real))).toBeNull(); // shorter than both copies
    opened.forEach(closeWalIndex);
    reader.close();
    writer.close();
  });
});
