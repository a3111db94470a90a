import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

// The data directory holds the database, the encryption key and the setup token: only the
// service's own user may read them. What the service creates it creates owner-only (chmod right
// after creation, so a loose umask cannot widen it before anything is written); what the operator
// created is theirs to decide, so a loose mode there is only warned about.

const warned = new Set<string>();

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0");

function warnIfOpen(target: string, kind: "directory" | "file", wanted: number) {
  const mode = statSync(target).mode & 0o777;
  if ((mode & 0o077) === 0 || warned.has(target)) return;
  warned.add(target);
  console.warn(
    `The ${kind} ${target} has mode ${octal(mode)}: other users on this machine may read it. ` +
      `The service leaves an existing ${kind}'s mode as it is; run chmod ${octal(wanted)} on it to keep the data private.`,
  );
}

/** Creates `dir` (and missing parents) with mode 0700; an existing one keeps its mode, with a warning when others may read it. */
export function ensureOwnerOnlyDirectory(dir: string) {
  if (existsSync(dir)) return warnIfOpen(dir, "directory", 0o700);
  // Parents it has to create get 0700 from mkdir (less the umask); the directory itself is chmodded to be sure.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Creates `file` empty with mode 0600 when it does not exist (an empty file is a valid, empty SQLite
 * database, and SQLite gives its -wal and -shm files the database file's mode). An existing one keeps
 * its mode, with a warning when others may read it.
 */
export function ensureOwnerOnlyFile(file: string) {
  ensureOwnerOnlyDirectory(path.dirname(file));
  let fd: number;
  try {
    // "wx": never truncate a file another process created a moment ago.
    fd = openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return warnIfOpen(file, "file", 0o600);
  }
  try {
    chmodSync(file, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** `content` in a new owner-only file beside `file` (same directory, so it can be linked or renamed into place). */
function writeTemporary(file: string, content: string): string {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  writeFileSync(temporary, content, { mode: 0o600, flag: "wx" });
  chmodSync(temporary, 0o600);
  return temporary;
}

/**
 * Creates `file` holding `content` (mode 0600) unless it exists; whether this call created it. Other
 * processes on the same directory (instances, WEB_CONCURRENCY workers starting at once) never see it
 * half-written: the content is written to a temporary file first, then linked into place, which fails
 * with EEXIST when another process's file got there first (theirs stands, never overwritten).
 */
export function createOwnerOnlyFileOnce(file: string, content: string): boolean {
  const temporary = writeTemporary(file, content);
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Replaces `file` with `content` (mode 0600) in one step: a reader sees the old file or the new one, never part of it. */
export function replaceOwnerOnlyFile(file: string, content: string) {
  const temporary = writeTemporary(file, content);
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
