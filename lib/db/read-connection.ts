import Database from "better-sqlite3";
import { databaseFile } from "@/lib/env";

const globalForRead = globalThis as unknown as { readConnection?: { file: string; db: Database.Database } };

/**
 * A read-only SQLite connection for the per-request hot path (API key lookup), where Prisma's
 * per-query overhead (~0.3-0.7 ms here) would cost more than the whole request otherwise does.
 * WAL lets it read beside the writer; it can never write. Everything else goes through Prisma.
 */
export function readConnection(): Database.Database {
  const file = databaseFile();
  if (globalForRead.readConnection?.file !== file) {
    globalForRead.readConnection?.db.close();
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    globalForRead.readConnection = { file, db };
  }
  return globalForRead.readConnection.db;
}
