import { db } from "@/lib/db";
import { databaseProvider } from "@/lib/env";

/**
 * One SQL text for both databases: identifiers double-quoted, parameters as `:name` (a `::cast` is
 * left alone). Compiled once per text into the provider's positional form: `$n` on PostgreSQL, `?`
 * on SQLite (a name used twice is passed twice).
 */
type Compiled = { text: string; names: string[] };
const compiled = { postgresql: new Map<string, Compiled>(), sqlite: new Map<string, Compiled>() };

export function positional(sql: string, provider = databaseProvider()): Compiled {
  const cache = compiled[provider];
  let query = cache.get(sql);
  if (!query) {
    const names: string[] = [];
    const text = sql.replace(/(?<!:):([A-Za-z_]\w*)/g, (_, name: string) => {
      if (provider === "sqlite") {
        names.push(name);
        return "?";
      }
      const index = names.indexOf(name);
      if (index >= 0) return `$${index + 1}`;
      names.push(name);
      return `$${names.length}`;
    });
    query = { text, names };
    cache.set(sql, query);
  }
  return query;
}

export function valuesFor(query: Compiled, params: Record<string, unknown>): unknown[] {
  return query.names.map((name) => {
    if (!(name in params)) throw new Error(`raw SQL: no value for :${name}`);
    return params[name];
  });
}

/**
 * A write in portable SQL through Prisma's raw statements, on db(): inside the request's transaction
 * it is part of it. For the few statements every write repeats (the audit record), where a model
 * query's per-call cost (building and reading back the whole row) outweighs the statement itself.
 * Dates go in as Date (Prisma stores them as its model queries do); returns the rows changed.
 */
export async function rawExecute(sql: string, params: Record<string, unknown> = {}): Promise<number> {
  const query = positional(sql);
  return db().$executeRawUnsafe(query.text, ...valuesFor(query, params));
}

/** A read in portable SQL on db() (inside the request's transaction, it sees the transaction's own writes). */
export async function rawQuery<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
  const query = positional(sql);
  return db().$queryRawUnsafe<Row[]>(query.text, ...valuesFor(query, params));
}
