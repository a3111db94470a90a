import pg from "pg";
import { vi } from "vitest";

/** A query as a pg client was given it: its SQL text, (Prisma's adapter sets it on every query) its row mode, and the client (connection) that sent it. */
export type PgQuery = { text: string; rowMode?: string; client: pg.Client };

/**
 * Every query any pg client of the process sends while `work` runs, in order: Prisma's adapter, the
 * raw reads and the raw statements all share the pg module. Counted at the driver, deterministically.
 */
export async function pgQueriesDuring(work: () => Promise<unknown>): Promise<PgQuery[]> {
  const sent: PgQuery[] = [];
  const query = pg.Client.prototype.query;
  // The spy hands on whatever pg's own query returns (a promise, or nothing when given a callback).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const given = typeof first === "string" ? { text: first } : (first as { text?: unknown; rowMode?: unknown });
    sent.push({
      text: String(given.text),
      ...(typeof given.rowMode === "string" ? { rowMode: given.rowMode } : {}),
      client: this,
    });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}
