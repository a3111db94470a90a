import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";

// Files of a backup and of a restore: written owner-only (0600) and synced to disk before they count, read
// in chunks (a database may be larger than memory), and put into place in one step, never over a file
// someone else made meanwhile.

const CHUNK = 1 << 20;

/** Calls `each` with consecutive chunks of `file`. */
function readChunks(file: string, each: (chunk: Buffer) => void) {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) return;
      each(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `bytes` at the file's current position (one writeSync may write part of them). */
function writeAll(fd: number, bytes: Buffer) {
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** The SHA-256 of the file's bytes, in hex. */
export function sha256OfFile(file: string): string {
  const hash = createHash("sha256");
  readChunks(file, (chunk) => hash.update(chunk));
  return hash.digest("hex");
}

/** Flushes the file (or directory: a rename or link in it) to disk. */
export function syncToDisk(target: string) {
  const fd = openSync(target, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates `file` (it must not exist) with mode 0600 holding `content`, synced to disk. */
export function writeOwnerOnlyFile(file: string, content: string | Buffer) {
  const fd = openSync(file, "wx", 0o600);
  try {
    // A loose umask cannot widen it: chmod before anything is written.
    chmodSync(file, 0o600);
    writeAll(fd, Buffer.from(content));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies `source` to the new file `destination` (mode 0600), synced to disk; the SHA-256 of what was
 * written. With `expected`, a copy whose bytes differ from it (the source changed since it was checked)
 * is deleted and refused.
 */
export function copyOwnerOnlyFile(source: string, destination: string, expected?: string): string {
  const hash = createHash("sha256");
  const fd = openSync(destination, "wx", 0o600);
  try {
    chmodSync(destination, 0o600);
    readChunks(source, (chunk) => {
      hash.update(chunk);
      writeAll(fd, chunk);
    });
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const digest = hash.digest("hex");
  if (expected !== undefined && digest !== expected) {
    rmSync(destination, { force: true });
    throw new BackupError(`${source} changed while it was copied: it no longer matches manifest.json`);
  }
  return digest;
}

/** A new name beside `file`, hidden, for a file written before it is put into place. */
export const temporaryBeside = (file: string, purpose: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${purpose}-${process.pid}-${randomBytes(6).toString("hex")}`);

/**
 * Puts a copy of `source` (checked against `expected`) at `target` in one step, mode 0600: linked into
 * place, so it fails with EEXIST rather than replace a file that appeared meanwhile; with `replace`, renamed
 * over the (empty) target instead. The directory is synced, so the new name survives a crash.
 */
export function installFile(source: string, target: string, expected: string, { replace = false } = {}) {
  const temporary = temporaryBeside(target, "restore");
  try {
    copyOwnerOnlyFile(source, temporary, expected);
    if (replace) renameSync(temporary, target);
    else linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new BackupError(`${target} appeared while restoring: left as it is, nothing overwritten`);
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  syncToDisk(path.dirname(target));
}

/** Every entry below `dir` that is not a directory, as a relative path with `/`, sorted. */
export function entriesUnder(dir: string, prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...entriesUnder(dir, relative));
    else found.push(relative);
  }
  return found.sort();
}

/** Whether `file` is a regular file (not a link, a directory or a device). */
export function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}
