// The service's own PostgreSQL transactions (lib/db/postgresql-transaction.ts): begun at their first
// statement, ended with COMMIT or ROLLBACK and their connection given back however they end, and the Prisma
// clients lent to them. A fake engine stands in for Prisma's driver adapter over the pool: what is checked
// is what the engine asks of it and when, not what PostgreSQL does (lib/db/raw-sql.postgresql.test.ts does).
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { PostgresqlTransaction, TransactionClients } from "@/lib/db/postgresql-transaction";
import { withinContext } from "@/lib/request-context";

const query = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** An engine noting what it is asked: "BEGIN" when a transaction starts, each statement, "release" as a connection goes back. */
function fakeEngine(asked: string[], { failCommit = false, failBegin = false } = {}): SqlDriverAdapter {
  const transaction: Transaction = {
    provider: "postgres",
    adapterName: "fake",
    options: { usePhantomQuery: false },
    executeRaw: async (q) => {
      asked.push(q.sql);
      if (failCommit && q.sql === "COMMIT") throw new Error("could not serialize access");
      return 1;
    },
    queryRaw: async (q) => (asked.push(q.sql), { columnNames: [], columnTypes: [], rows: [] }),
    commit: async () => void asked.push("release"),
    rollback: async () => void asked.push("release"),
  };
  return {
    provider: "postgres",
    adapterName: "fake",
    startTransaction: async () => {
      if (failBegin) throw new Error("timeout exceeded when trying to connect");
      asked.push("BEGIN");
      return transaction;
    },
    executeRaw: async (q) => (asked.push(`alone: ${q.sql}`), 1),
    queryRaw: async () => ({ columnNames: [], columnTypes: [], rows: [] }),
    executeScript: async () => {},
    dispose: async () => {},
  };
}

describe("a PostgreSQL transaction of the service's", () => {
  it("begins at its first statement, once however many ask at the same moment; COMMIT, then the connection goes back", async () => {
    const asked: string[] = [];
    const transaction = new PostgresqlTransaction(fakeEngine(asked));
    expect(transaction.begun).toBe(false);
    expect(asked).toEqual([]);
    const [first, second] = await Promise.all([transaction.statements(), transaction.statements()]);
    expect(first).toBe(second);
    expect(transaction.begun).toBe(true);
    await first.executeRaw(query("INSERT INTO x VALUES (1)"));
    await transaction.lastStatement(query("INSERT INTO y VALUES (2)"));
    await transaction.end("COMMIT");
    expect(asked).toEqual(["BEGIN", "INSERT INTO x VALUES (1)", "INSERT INTO y VALUES (2)", "COMMIT", "release"]);
  });

  it("with no statement but the last, sends it alone: no BEGIN, no COMMIT, no connection held", async () => {
    const asked: string[] = [];
    const transaction = new PostgresqlTransaction(fakeEngine(asked));
    expect(await transaction.lastStatement(query("WITH d0 AS (INSERT ...) INSERT ..."))).toBe(1);
    await transaction.end("COMMIT");
    expect(asked).toEqual(["alone: WITH d0 AS (INSERT ...) INSERT ..."]);
  });

  it("ROLLBACK, then the connection goes back; and with no statement, nothing at all", async () => {
    const asked: string[] = [];
    const begun = new PostgresqlTransaction(fakeEngine(asked));
    await begun.statements();
    await begun.end("ROLLBACK");
    expect(asked).toEqual(["BEGIN", "ROLLBACK", "release"]);
    const idle: string[] = [];
    await new PostgresqlTransaction(fakeEngine(idle)).end("ROLLBACK");
    expect(idle).toEqual([]);
  });

  it("a COMMIT PostgreSQL refuses still gives the connection back, and the refusal reaches the caller", async () => {
    const asked: string[] = [];
    const transaction = new PostgresqlTransaction(fakeEngine(asked, { failCommit: true }));
    await transaction.statements();
    await expect(transaction.end("COMMIT")).rejects.toThrow(/could not serialize/);
    expect(asked).toEqual(["BEGIN", "COMMIT", "release"]);
  });

  it("a BEGIN that found no connection holds none: its statements fail, and the end asks nothing", async () => {
    const asked: string[] = [];
    const transaction = new PostgresqlTransaction(fakeEngine(asked, { failBegin: true }));
    await expect(transaction.statements()).rejects.toThrow(/timeout exceeded/);
    await transaction.end("ROLLBACK");
    expect(asked).toEqual([]);
  });

  it("once ended, refuses a late statement rather than send it on a connection the pool has given to another", async () => {
    const asked: string[] = [];
    const transaction = new PostgresqlTransaction(fakeEngine(asked));
    await transaction.statements();
    await transaction.end("COMMIT");
    await expect(transaction.statements()).rejects.toThrow("This transaction has already ended");
    expect(asked).toEqual(["BEGIN", "COMMIT", "release"]);
  });
});

describe("the Prisma clients lent to transactions", () => {
  /** Lent clients whose driver adapters the test drives itself, as Prisma would. */
  function lending(asked: string[], limits = { max: 10, waitMs: 1_000 }) {
    const factories: SqlDriverAdapterFactory[] = [];
    const clients = new TransactionClients(
      fakeEngine(asked),
      (factory) => {
        factories.push(factory);
        return { $disconnect: async () => {} } as PrismaClient;
      },
      limits,
    );
    return { clients, factories };
  }
  /** Runs `work` as code inside `transaction` runs, in its request context. */
  const inside = <T>(transaction: PostgresqlTransaction, work: () => Promise<T>) =>
    withinContext({ transaction: { client: {} as PrismaClient, connection: transaction } }, work);

  it("send a transaction's queries on its connection, and Prisma's own transactions inside as savepoints", async () => {
    const asked: string[] = [];
    const { clients, factories } = lending(asked);
    const transaction = new PostgresqlTransaction(fakeEngine(asked));
    await clients.lend(transaction);
    const adapter = await factories[0]!.connect();
    await inside(transaction, async () => {
      await adapter.queryRaw(query("SELECT 1"));
      const nested = await adapter.startTransaction();
      await nested.executeRaw(query("UPDATE x"));
      await nested.commit();
      const failed = await adapter.startTransaction();
      await failed.rollback();
    });
    expect(asked).toEqual([
      "BEGIN",
      "SELECT 1",
      "SAVEPOINT prisma_1",
      "UPDATE x",
      "RELEASE SAVEPOINT prisma_1",
      "SAVEPOINT prisma_2",
      "ROLLBACK TO SAVEPOINT prisma_2",
    ]);
  });

  it("serve one transaction at a time: a client given back is lent again, and a late query of the first is refused", async () => {
    const asked: string[] = [];
    const { clients, factories } = lending(asked);
    const first = new PostgresqlTransaction(fakeEngine(asked));
    const lent = await clients.lend(first);
    const busy = await clients.lend(new PostgresqlTransaction(fakeEngine(asked)));
    expect(busy.client).not.toBe(lent.client);
    clients.giveBack(lent);
    const second = new PostgresqlTransaction(fakeEngine(asked));
    expect((await clients.lend(second)).client).toBe(lent.client);
    const adapter = await factories[0]!.connect();
    // Made inside the first transaction, sent after it: the client now serves the second.
    await expect(inside(first, () => adapter.executeRaw(query("UPDATE late")))).rejects.toThrow(
      "This transaction has already ended",
    );
    await inside(second, () => adapter.executeRaw(query("UPDATE second")));
    expect(asked).toEqual(["BEGIN", "UPDATE second"]);
  });

  it("are no more than the pool's size: a transaction beyond waits for one given back, and past the wait is refused as the pool refuses", async () => {
    const asked: string[] = [];
    const { clients, factories } = lending(asked, { max: 2, waitMs: 200 });
    const transaction = () => new PostgresqlTransaction(fakeEngine(asked));
    const first = await clients.lend(transaction());
    await clients.lend(transaction());
    const third = clients.lend(transaction());
    clients.giveBack(first);
    expect((await third).client).toBe(first.client);
    expect(factories).toHaveLength(2);
    await expect(clients.lend(transaction())).rejects.toThrow("timeout exceeded when trying to connect");
    expect(factories).toHaveLength(2);
  });
});
