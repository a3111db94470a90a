// The service's adapter around Prisma's PostgreSQL adapter (lib/db/postgresql.ts): the transaction
// inTransaction() opens is handed to raw statements while it is open, and taken back before its COMMIT or
// ROLLBACK is sent, however it ends. A fake adapter stands in for Prisma's: what is checked is what the
// wrapper does and when, not what PostgreSQL does.
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import { handingOutTransactions } from "@/lib/db/postgresql";
import { withinContext, type TransactionConnection } from "@/lib/request-context";

const query = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** A factory whose adapter starts one fake transaction, noting what it was asked and, at each step, what the slot held. */
function fakeFactory(asked: string[], { failCommit = false } = {}): SqlDriverAdapterFactory {
  const transaction: Transaction = {
    provider: "postgres",
    adapterName: "fake",
    options: { usePhantomQuery: false },
    executeRaw: async (q) => {
      asked.push(q.sql);
      if (failCommit && q.sql === "COMMIT") throw new Error("could not serialize access");
      return 0;
    },
    queryRaw: async (q) => (asked.push(q.sql), { columnNames: [], columnTypes: [], rows: [] }),
    commit: async () => void asked.push("commit()"),
    rollback: async () => void asked.push("rollback()"),
  };
  const adapter = {
    provider: "postgres",
    adapterName: "fake",
    startTransaction: async () => transaction,
  } as Partial<SqlDriverAdapter> as SqlDriverAdapter;
  return { provider: "postgres", adapterName: "fake", connect: async () => adapter };
}

async function started(asked: string[], options?: { failCommit?: boolean }) {
  const adapter = await handingOutTransactions(fakeFactory(asked, options)).connect();
  const slot: TransactionConnection = {};
  const transaction = await withinContext({ startingTransaction: slot }, () => adapter.startTransaction());
  return { slot, transaction };
}

describe("a PostgreSQL transaction, handed to raw statements", () => {
  it("is there from the start and through its queries; at commit() it is taken back, then COMMIT is sent, then the connection released", async () => {
    const asked: string[] = [];
    const { slot, transaction } = await started(asked);
    expect(transaction.options.usePhantomQuery).toBe(true);
    expect(slot.current).toBeDefined();
    await slot.current!.executeRaw(query("INSERT INTO x VALUES (1)"));
    await transaction.queryRaw(query("SELECT 1"));
    expect(slot.current).toBeDefined();
    const committing = transaction.commit();
    // Taken back at once, before the COMMIT goes out.
    expect(slot.current).toBeUndefined();
    await committing;
    expect(asked).toEqual(["INSERT INTO x VALUES (1)", "SELECT 1", "COMMIT", "commit()"]);
  });

  it("at rollback() (also Prisma's, past a transaction's time limit) it is taken back, then ROLLBACK sent, then the connection released", async () => {
    const asked: string[] = [];
    const { slot, transaction } = await started(asked);
    await transaction.rollback();
    expect(slot.current).toBeUndefined();
    expect(asked).toEqual(["ROLLBACK", "rollback()"]);
  });

  it("a COMMIT PostgreSQL refuses still releases the connection, and the refusal reaches the caller", async () => {
    const asked: string[] = [];
    const { slot, transaction } = await started(asked, { failCommit: true });
    await expect(transaction.commit()).rejects.toThrow(/could not serialize/);
    expect(slot.current).toBeUndefined();
    expect(asked).toEqual(["COMMIT", "commit()"]);
  });

  it("is left nowhere when no one asked (a transaction Prisma starts outside inTransaction())", async () => {
    const asked: string[] = [];
    const adapter = await handingOutTransactions(fakeFactory(asked)).connect();
    const transaction = await adapter.startTransaction();
    await transaction.commit();
    expect(asked).toEqual(["COMMIT", "commit()"]);
  });
});
