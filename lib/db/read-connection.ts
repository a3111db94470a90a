import Database from "better-sqlite3";
import { databaseFile, env } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";
import { closeWalIndex, openWalIndex, type WalIndex } from "@/lib/db/wal-index";

type ReadConnection = { url: string; file: string; db: Database.Database; walIndex: WalIndex | null };

const globalForRead = processGlobal<{ readConnection?: ReadConnection }>("read-connection", () => ({}));

/**
 * A read-only SQLite connection for the per-request hot path (API key lookup), where Prisma's
 * per-query overhead (~0.3-0.7 ms here) would cost more than the whole request otherwise does.
 * WAL lets it read beside the writer; it can never write. Everything else goes through Prisma.
 */
export function readConnection(): Database.Database {
  return current().db;
}

/**
 * The WAL index of the read connection `db`'s database (lib/db/wal-index.ts); null when it has none (not
 * in WAL mode) or `db` is no longer the read connection. Opened once this connection has read: from then on it holds its shared lock on the
 * database (as every connection in WAL mode does until it closes), so no other connection can be the
 * last one to close and delete the `-shm` file this one maps, the file opened here.
 */
export function readWalIndex(db: Database.Database): WalIndex | null {
  const connection = globalForRead.readConnection;
  if (connection?.db !== db) return null;
  if (!connection.walIndex) {
    connection.db.pragma("data_version");
    connection.walIndex = openWalIndex(connection.file);
  }
  return connection.walIndex;
}

function current(): ReadConnection {
  // Keyed by DATABASE_URL as given (tests switch it between files); resolved to a path only when it changes.
  const url = env().DATABASE_URL;
  if (globalForRead.readConnection?.url !== url) {
    if (globalForRead.readConnection) {
      globalForRead.readConnection.db.close();
      closeWalIndex(globalForRead.readConnection.walIndex);
    }
    const file = databaseFile(url);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    globalForRead.readConnection = { url, file, db, walIndex: null };
  }
  return globalForRead.readConnection;
}
