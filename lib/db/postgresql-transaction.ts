import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { requestContext, type TransactionConnection } from "@/lib/request-context";

// The PostgreSQL transactions of inTransaction() (lib/db/client.ts), run by the service itself on a
// connection of its pool rather than as Prisma's interactive transactions: BEGIN, the statements and COMMIT
// or ROLLBACK go straight through the driver adapter's public transaction (Prisma's PrismaPg on the pool).
// A transaction begins at its first statement; one whose only statement is the inserts put off until
// COMMIT (lib/db/raw-sql.ts: a simple write with its audit record and events) sends that statement alone,
// without BEGIN and COMMIT. Prisma's queries inside it go through a client of their own, lent to the
// transaction while it runs, whose driver adapter sends them on the transaction's connection.

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** One transaction of inTransaction(), on `engine` (the driver adapter over the pool). */
export class PostgresqlTransaction implements TransactionConnection {
  #started: Promise<Transaction> | undefined;
  #ended = false;

  constructor(private readonly engine: SqlDriverAdapter) {}

  get begun(): boolean {
    return this.#started !== undefined;
  }

  statements(): Promise<Transaction> {
    // A statement started inside the transaction but sent after its end (a promise nobody awaited) is
    // refused, never sent on the connection the pool has since given to someone else.
    if (this.#ended) return Promise.reject(new Error("This transaction has already ended"));
    return (this.#started ??= this.engine.startTransaction());
  }

  async lastStatement(query: SqlQuery): Promise<number> {
    if (this.begun) return (await this.statements()).executeRaw(query);
    return this.engine.executeRaw(query);
  }

  /** COMMIT or ROLLBACK, if a statement began it; the connection goes back to the pool however that ends. */
  async end(outcome: "COMMIT" | "ROLLBACK"): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    // A BEGIN that failed (no connection within the pool's wait) holds no connection: nothing to end.
    const transaction = await this.#started?.catch(() => undefined);
    if (!transaction) return;
    try {
      await transaction.executeRaw(statement(outcome));
    } finally {
      await (outcome === "COMMIT" ? transaction.commit() : transaction.rollback());
    }
  }
}

/** What a lent client serves now: one transaction at a time. */
type Binding = { serving?: PostgresqlTransaction };
/** A client lent to one transaction at a time. */
export type Lent = { client: PrismaClient; binding: Binding };

/**
 * The Prisma clients transactions borrow for their model queries: one per transaction running at the same
 * moment, kept for the next (a client holds about 6 MB and compiles at its first query), and no more than
 * `max` in all (the pool's size: a transaction beyond it would wait for a connection anyway). A transaction
 * that finds none free waits for one, up to `waitMs`, then is refused as the pool refuses (503). A client
 * serves one transaction at a time, so Prisma's batching of the queries it is given in one tick never mixes
 * two transactions' queries.
 */
export class TransactionClients {
  #idle: Lent[] = [];
  #all: Lent[] = [];
  #waiting: ((lent: Lent) => void)[] = [];

  constructor(
    private readonly engine: SqlDriverAdapter,
    private readonly createClient: (adapter: SqlDriverAdapterFactory) => PrismaClient,
    private readonly limits: { max: number; waitMs: number },
  ) {}

  /** A client for `transaction`, whose queries run in it until `giveBack`. */
  async lend(transaction: PostgresqlTransaction): Promise<Lent> {
    let lent = this.#idle.pop();
    if (!lent && this.#all.length < this.limits.max) {
      const binding: Binding = {};
      lent = { client: this.createClient(this.#adapterFor(binding)), binding };
      this.#all.push(lent);
    }
    lent ??= await this.#next();
    lent.binding.serving = transaction;
    return lent;
  }

  giveBack(lent: Lent): void {
    lent.binding.serving = undefined;
    const waiting = this.#waiting.shift();
    if (waiting) waiting(lent);
    else this.#idle.push(lent);
  }

  /** The next client given back, or a refusal after `waitMs`. */
  #next(): Promise<Lent> {
    return new Promise((resolve, reject) => {
      const take = (lent: Lent) => {
        clearTimeout(timer);
        resolve(lent);
      };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((waiting) => waiting !== take);
        // pg's own words for a pool with no free connection in time, which isDatabaseBusy answers 503.
        reject(new Error("timeout exceeded when trying to connect"));
      }, this.limits.waitMs);
      this.#waiting.push(take);
    });
  }

  async disconnect(): Promise<void> {
    const all = this.#all;
    this.#all = [];
    this.#idle = [];
    await Promise.allSettled(all.map((lent) => lent.client.$disconnect()));
  }

  /**
   * The driver adapter of a lent client: its queries go to the transaction it serves, and Prisma's own
   * transactions inside (a nested write) become savepoints of that transaction.
   */
  #adapterFor(binding: Binding): SqlDriverAdapterFactory {
    const engine = this.engine;
    const serving = async (): Promise<Transaction> => {
      const transaction = binding.serving;
      // The transaction of the caller's context, not merely the one the client serves now: a late query
      // of a transaction that has ended must not run in the next one this client serves.
      if (!transaction || requestContext()?.transaction?.connection !== transaction)
        throw new Error("This transaction has already ended");
      return transaction.statements();
    };
    let savepoints = 0;
    const adapter: SqlDriverAdapter = {
      provider: engine.provider,
      adapterName: engine.adapterName,
      queryRaw: async (query) => (await serving()).queryRaw(query),
      executeRaw: async (query) => (await serving()).executeRaw(query),
      executeScript: () => Promise.reject(new Error("A transaction's client runs no scripts")),
      startTransaction: async () => savepointOf(await serving(), `prisma_${++savepoints}`),
      ...(engine.getConnectionInfo ? { getConnectionInfo: () => engine.getConnectionInfo!() } : {}),
      dispose: async () => {},
    };
    return { provider: engine.provider, adapterName: engine.adapterName, connect: async () => adapter };
  }
}

/** Prisma's transaction inside ours (a nested write): a savepoint, released or rolled back to as Prisma ends it. */
async function savepointOf(outer: Transaction, name: string): Promise<Transaction> {
  await outer.executeRaw(statement(`SAVEPOINT ${name}`));
  return {
    provider: outer.provider,
    adapterName: outer.adapterName,
    options: { usePhantomQuery: true },
    queryRaw: (query) => outer.queryRaw(query),
    executeRaw: (query) => outer.executeRaw(query),
    commit: async () => void (await outer.executeRaw(statement(`RELEASE SAVEPOINT ${name}`))),
    rollback: async () => void (await outer.executeRaw(statement(`ROLLBACK TO SAVEPOINT ${name}`))),
  };
}
