import { db, onSqliteConnection } from "@/lib/db";
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

/** A value as Prisma stores it in SQLite: DateTime as ISO text with "+00:00", Boolean as 1/0. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * A write in portable SQL, part of the request's transaction when there is one: for the few
 * statements every write repeats (the audit record), where a model query's per-call cost (building
 * and reading back the whole row) outweighs the statement itself. Dates go in as Date, stored as
 * Prisma's model queries store them. On SQLite it runs straight on the connection's cached statements;
 * on PostgreSQL through Prisma's raw statements on db(). Returns the rows changed. Errors are the
 * driver's own (not Prisma's P2002 and kin).
 */
export async function rawExecute(sql: string, params: Record<string, unknown> = {}): Promise<number> {
  const query = positional(sql);
  const values = valuesFor(query, params);
  if (databaseProvider() === "sqlite") return onSqliteConnection((statement) => statement(query.text).run(values.map(sqliteValue)).changes);
  return db().$executeRawUnsafe(query.text, ...values);
}

/**
 * A read in portable SQL that sees the request's transaction's own writes (rawRead reads committed
 * data on another connection). Select text and numbers only: DateTime and Boolean columns come back
 * differently from the two databases.
 */
export async function rawQuery<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
  const query = positional(sql);
  const values = valuesFor(query, params);
  if (databaseProvider() === "sqlite") return onSqliteConnection((statement) => statement(query.text).raw(false).all(values.map(sqliteValue)) as Row[]);
  return db().$queryRawUnsafe<Row[]>(query.text, ...values);
}
