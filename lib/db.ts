import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { databaseFile } from "@/lib/env";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";

export type Db = PrismaClient;
/** The client inside db().$transaction(async (tx) => ...). */
export type Tx = Prisma.TransactionClient;

const globalForDb = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  // `timeout` is SQLite's busy timeout: a writer waits for the lock instead of failing with
  // "database is locked". WAL mode is set on the file by the migrator and persists.
  const adapter = new PrismaBetterSqlite3({ url: databaseFile(), timeout: 10_000 });
  return new PrismaClient({ adapter });
}

/** The one Prisma client of the process (kept on globalThis so dev reloads do not open more). */
export function db(): PrismaClient {
  globalForDb.prisma ??= createClient();
  return globalForDb.prisma;
}

/** Closes the client; tests use it between throwaway databases. */
export async function disconnectDb() {
  await globalForDb.prisma?.$disconnect();
  globalForDb.prisma = undefined;
}
