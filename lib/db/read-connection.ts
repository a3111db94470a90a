import Database from "better-sqlite3";
import { databaseFile, env } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";

type ReadConnection = { url: string; db: Database.Database };

const globalForRead = processGlobal<{ readConnection?: ReadConnection }>("read-connection", () => ({}));

/**
 * A read-only SQLite connection for the per-request hot path (API key lookup), where Prisma's
 * per-query overhead (~0.3-0.7 ms here) would cost more than the whole request otherwise does.
 * WAL lets it read beside the writer; it can never write. Everything else goes through Prisma.
 */
export function readConnection(): Database.Database {
  return current().db;
}

function current(): ReadConnection {
  // Keyed by DATABASE_URL as given (tests switch it between files); resolved to a path only when it changes.
  const url = env().DATABASE_URL;
  if (globalForRead.readConnection?.url !== url) {
    globalForRead.readConnection?.db.close();
    const db = new Database(databaseFile(url), { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    globalForRead.readConnection = { url, db };
  }
  return globalForRead.readConnection;
}
