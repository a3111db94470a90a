// The adapter wrapper that leaves a PostgreSQL transaction's connection for raw statements
// (lib/db/postgresql.ts): the connection is handed out only while the transaction is open, and
// taken back before Prisma ends it, however it ends. A fake adapter stands in for Prisma's: what is
// checked is when the wrapper lets go, not what PostgreSQL does.
import pg from "pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import { adapterLeavingTransactionConnections } from "@/lib/db/postgresql";
import { withinContext, type TransactionConnection } from "@/lib/request-context";

const query = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** A factory whose adapter starts transactions on one pg client (never connected), noting what they were asked. */
function fakeFactory(asked: string[]): SqlDriverAdapterFactory {
  const client = new pg.Client();
  const transaction = {
    client,
    provider: "postgres",
    adapterName: "fake",
    options: { usePhantomQuery: false },
    executeRaw: async (q: SqlQuery) => (asked.push(q.sql), 0),
    queryRaw: async (q: SqlQuery) => (asked.push(q.sql), { columnNames: [], columnTypes: [], rows: [] }),
    commit: async () => void asked.push("commit()"),
    rollback: async () => void asked.push("rollback()"),
  } as unknown as Transaction;
  const adapter = { provider: "postgres", adapterName: "fake", startTransaction: async () => transaction };
  return {
    provider: "postgres",
    adapterName: "fake",
    connect: async () => adapter as unknown as SqlDriverAdapter,
  };
}

async function started(asked: string[]) {
  const adapter = await adapterLeavingTransactionConnections(fakeFactory(asked)).connect();
  const slot: TransactionConnection = {};
  const transaction = await withinContext({ startingTransaction: slot }, () => adapter.startTransaction());
  return { slot, transaction };
}

describe("a PostgreSQL transaction's connection, left for raw statements", () => {
  it("is there from the start and through the transaction's queries, and gone before its COMMIT is sent", async () => {
    const asked: string[] = [];
    const { slot, transaction } = await started(asked);
    expect(slot.current).toBeInstanceOf(pg.Client);
    await transaction.executeRaw(query("UPDATE x SET y = 1"));
    await transaction.queryRaw(query("SELECT 1"));
    expect(slot.current).toBeInstanceOf(pg.Client);
    await transaction.executeRaw(query("COMMIT"));
    expect(slot.current).toBeUndefined();
    await transaction.commit();
    expect(asked).toEqual(["UPDATE x SET y = 1", "SELECT 1", "COMMIT", "commit()"]);
  });

  it("is gone before a ROLLBACK (Prisma's, when the transaction outlives its time limit), and at rollback() or commit() alone", async () => {
    const rolledBack = await started([]);
    await rolledBack.transaction.queryRaw(query(" rollback"));
    expect(rolledBack.slot.current).toBeUndefined();
    for (const end of ["rollback", "commit"] as const) {
      const { slot, transaction } = await started([]);
      await transaction[end]();
      expect(slot.current).toBeUndefined();
    }
  });

  it("is left nowhere when no one asked (a transaction Prisma starts outside inTransaction())", async () => {
    const asked: string[] = [];
    const adapter = await adapterLeavingTransactionConnections(fakeFactory(asked)).connect();
    const transaction = await adapter.startTransaction();
    await transaction.executeRaw(query("COMMIT"));
    expect(asked).toEqual(["COMMIT"]);
  });
});
