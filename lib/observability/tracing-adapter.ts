import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlQueryable,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { tracedStatement, type DatabaseSystem } from "@/lib/observability/tracing";

// A span per statement for a driver adapter (Prisma's public interface, @prisma/driver-adapter-utils):
// every statement Prisma's client sends, and every raw statement the service sends through the adapter
// or one of its transactions, goes through queryRaw or executeRaw here. With tracing off each costs one
// property read more (tracedStatement).

/** queryRaw and executeRaw of `queryable`, each statement in a span. */
function tracedQueries(system: DatabaseSystem, queryable: SqlQueryable): Pick<SqlQueryable, "queryRaw" | "executeRaw"> {
  return {
    queryRaw: (query: SqlQuery) => tracedStatement(system, query.sql, () => queryable.queryRaw(query)),
    executeRaw: (query: SqlQuery) => tracedStatement(system, query.sql, () => queryable.executeRaw(query)),
  };
}

/** A transaction whose statements are traced; its savepoints as it has them (Prisma uses them when present). */
function tracedTransaction(system: DatabaseSystem, transaction: Transaction): Transaction {
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    ...tracedQueries(system, transaction),
    commit: () => transaction.commit(),
    rollback: () => transaction.rollback(),
    ...(transaction.createSavepoint && { createSavepoint: (name) => transaction.createSavepoint!(name) }),
    ...(transaction.rollbackToSavepoint && {
      rollbackToSavepoint: (name) => transaction.rollbackToSavepoint!(name),
    }),
    ...(transaction.releaseSavepoint && { releaseSavepoint: (name) => transaction.releaseSavepoint!(name) }),
  };
}

/** `adapter` with its statements, and those of the transactions it starts, traced. */
export function tracedAdapter(system: DatabaseSystem, adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    ...tracedQueries(system, adapter),
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: async (isolationLevel) =>
      tracedTransaction(system, await adapter.startTransaction(isolationLevel)),
    ...(adapter.getConnectionInfo && { getConnectionInfo: () => adapter.getConnectionInfo!() }),
    dispose: () => adapter.dispose(),
  };
}

/** A factory whose adapters are traced (tracedAdapter). */
export function tracedAdapterFactory(
  system: DatabaseSystem,
  factory: SqlDriverAdapterFactory,
): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => tracedAdapter(system, await factory.connect()),
  };
}
