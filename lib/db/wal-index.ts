import { closeSync, openSync, readSync } from "node:fs";

// Whether a SQLite database in WAL mode may have changed, told by one read of 96 bytes: the header of
// its WAL index, which SQLite keeps in the `-shm` file beside the database and every connection reads
// to begin a read transaction (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). Every
// commit, by any connection of any process, writes a new header there (the number of WAL frames, a
// change counter, the WAL's salts when it starts over), so an unchanged header means nothing was
// committed since it was read. `PRAGMA data_version` tells the same, but starts a read transaction to
// do it (file locks and their system calls): on a key-authenticated GET it cost more than the key's
// look-up itself.

/** The header's size; SQLite writes it twice, one copy after the other (the second copy first). */
const HEADER_BYTES = 48;
/** The header's iVersion (native byte order), the one format SQLite has written since 3.7.0. */
const WAL_INDEX_VERSION = 3_007_000;
/** isInit: the header has been written by a connection (0 while none has yet). */
const IS_INIT_OFFSET = 12;

/** An open `-shm` file and the buffer its header is read into. */
export type WalIndex = { fd: number; buffer: Buffer };

/** The WAL index of the database `file`, or null when it has none to read (not in WAL mode, not opened yet). */
export function openWalIndex(file: string): WalIndex | null {
  try {
    return { fd: openSync(`${file}-shm`, "r"), buffer: Buffer.alloc(2 * HEADER_BYTES) };
  } catch {
    return null;
  }
}

export function closeWalIndex(index: WalIndex | null): void {
  if (index) closeSync(index.fd);
}

/**
 * The header as it stands now (a view of the index's buffer, valid until the next read), or null when
 * it cannot be relied on: an unknown version, not yet written, or its two copies differ (a commit is
 * being written this moment). A caller treats null as "changed".
 */
export function walIndexHeader(index: WalIndex): Buffer | null {
  const { buffer } = index;
  if (readSync(index.fd, buffer, 0, buffer.length, 0) !== buffer.length) return null;
  const version = buffer.readUInt32LE(0) === WAL_INDEX_VERSION || buffer.readUInt32BE(0) === WAL_INDEX_VERSION;
  if (!version || buffer[IS_INIT_OFFSET] !== 1) return null;
  if (buffer.compare(buffer, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return null;
  return buffer.subarray(0, HEADER_BYTES);
}
