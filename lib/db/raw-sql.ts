import { currentTransaction, db } from "@/lib/db/client";
import { createOrConflict, isUniqueViolation } from "@/lib/db/errors";
import { onSqliteConnection } from "@/lib/db/sqlite";
import type { OpenTransaction } from "@/lib/request-context";
import { isDriverAdapterError, type SqlQuery } from "@prisma/driver-adapter-utils";
import { Prisma } from "@/lib/generated/prisma/client";
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
  await flushDeferred(currentTransaction());
  const query = positional(sql);
  const values = valuesFor(query, params);
  if (databaseProvider() === "sqlite")
    return onSqliteConnection(query.text, (statement) => statement.run(values.map(sqliteValue)).changes);
  const transaction = currentTransaction()?.connection;
  if (transaction) return (await transaction.statements()).executeRaw(adapterQuery(query.text, values));
  return db().$executeRawUnsafe(query.text, ...values);
}

/**
 * A raw statement as Prisma's driver-adapter interface takes it: each parameter typed by its value (a
 * Date as a DateTime, which the adapter sends as UTC for the TIMESTAMP columns Prisma makes; the rest
 * as they are).
 */
function adapterQuery(sql: string, values: unknown[]): SqlQuery {
  return {
    sql,
    args: values,
    argTypes: values.map((value) => ({ scalarType: value instanceof Date ? "datetime" : "unknown", arity: "scalar" })),
  };
}

/**
 * A read in portable SQL that sees the request's transaction's own writes (rawRead reads committed
 * data on another connection). Select text and numbers only: DateTime and Boolean columns come back
 * differently from the two databases.
 */
export async function rawQuery<Row>(sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
  await flushDeferred(currentTransaction());
  const query = positional(sql);
  const values = valuesFor(query, params);
  if (databaseProvider() === "sqlite")
    return onSqliteConnection(query.text, (statement) => statement.raw(false).all(values.map(sqliteValue)) as Row[]);
  return db().$queryRawUnsafe<Row[]>(query.text, ...values);
}

/** Whether deferredInsert puts inserts off until COMMIT here (PostgreSQL, inside a transaction). */
export const insertsAreDeferred = () => databaseProvider() === "postgresql" && currentTransaction() !== undefined;

/** An insert put off until its transaction commits (deferredInsert). */
type DeferredInsert = { sql: string; params: Record<string, unknown>; table: string; conflict?: () => Error };

const deferredInserts = new WeakMap<OpenTransaction, DeferredInsert[]>();

/**
 * An INSERT (or INSERT ... SELECT) whose rows nothing in its transaction reads back: the audit record,
 * a webhook delivery, a new row whose answer the caller already has. On PostgreSQL, inside a
 * transaction, it is put off and sent with the others just before COMMIT as one statement (a chain of
 * `WITH ... AS (INSERT ...)`): a write and its audit record and events cost one round trip, not one
 * each. Elsewhere (SQLite, where a statement costs no round trip; or outside a transaction) it runs at
 * once, as rawExecute. `conflict`: the error for a duplicate this insert's unique indexes refuse
 * (the API's 409), thrown from here or from the commit. rawExecute and rawQuery send what is put off
 * first, so raw statements see it; model queries do not (hence: rows nothing reads back).
 */
export async function deferredInsert(
  sql: string,
  params: Record<string, unknown>,
  { conflict }: { conflict?: () => Error } = {},
): Promise<void> {
  const open = currentTransaction();
  if (databaseProvider() !== "postgresql" || !open) {
    const insert = () => rawExecute(sql, params);
    await (conflict ? createOrConflict(insert, conflict) : insert());
    return;
  }
  const table = /^\s*INSERT\s+INTO\s+"(\w+)"/i.exec(sql)?.[1];
  if (!table) throw new Error(`deferredInsert takes an INSERT: ${sql.slice(0, 40)}`);
  let queue = deferredInserts.get(open);
  if (!queue) deferredInserts.set(open, (queue = []));
  queue.push({ sql, params, table, conflict });
  open.beforeCommit ??= () => flushDeferred(open, { beforeCommit: true });
}

/**
 * Sends the inserts put off in `open` as one statement: every one but the last in a WITH clause (each
 * runs exactly once, whether or not anything reads it), the last as the statement itself. Parameters
 * are renamed per insert (`:d0_id`, `:d1_id`), so two inserts may use the same names.
 */
async function flushDeferred(open: OpenTransaction | undefined, { beforeCommit = false } = {}): Promise<void> {
  const queue = open && deferredInserts.get(open);
  if (!queue?.length) return;
  deferredInserts.delete(open!);
  const params: Record<string, unknown> = {};
  const texts = queue.map((insert, i) =>
    insert.sql.replace(/(?<!:):([A-Za-z_]\w*)/g, (_, name: string) => {
      params[`d${i}_${name}`] = insert.params[name];
      return `:d${i}_${name}`;
    }),
  );
  const last = texts.pop()!;
  const sql = texts.length ? `WITH ${texts.map((text, i) => `"d${i}" AS (${text})`).join(",\n")}\n${last}` : last;
  const query = positional(sql);
  const values = valuesFor(query, params);
  try {
    const transaction = open!.connection;
    const sent = adapterQuery(query.text, values);
    // The last statement before COMMIT goes alone when nothing else began the transaction: one statement is atomic.
    if (!transaction) await db().$executeRawUnsafe(query.text, ...values);
    else if (beforeCommit) await transaction.lastStatement(sent);
    else await (await transaction.statements()).executeRaw(sent);
  } catch (error) {
    const refused = uniqueViolationTable(error);
    const conflict = refused && queue.find((insert) => insert.table === refused && insert.conflict)?.conflict;
    if (conflict) throw conflict();
    throw error;
  }
}

/** The table whose unique index refused a raw statement on PostgreSQL (the driver adapter's error, or Prisma's P2010, names it). */
function uniqueViolationTable(error: unknown): string | null {
  if (!isUniqueViolation(error)) return null;
  // The driver adapter's own error, from a statement sent on the transaction's connection.
  if (isDriverAdapterError(error)) {
    const table = (error.cause as { table?: unknown }).table;
    return typeof table === "string" ? table : null;
  }
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  const cause = (error.meta as { driverAdapterError?: { cause?: { table?: unknown } } } | undefined)?.driverAdapterError
    ?.cause;
  return typeof cause?.table === "string" ? cause.table : null;
}
