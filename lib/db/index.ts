// The database engine: db(), tenantDb() and inTransaction() for model queries, and the statement runner
// for the domains' own raw SQL (lib/<domain>/store.ts). How a query is made fast (a cached read, a
// prepared statement, a transaction run by hand) is decided in lib/db and seen nowhere else.
export { db, disconnectDb, inTransaction, type Db, type Tx } from "@/lib/db/client";
export { tenantDb, currentScope, type TenantDb } from "@/lib/db/tenant";
export { lockRow, lockRows, readLocked, type LockMode } from "@/lib/db/locks";
export { createOrConflict, isDatabaseBusy, isUniqueViolation } from "@/lib/db/errors";
export { rawRead, isoTimestamp, type Rows } from "@/lib/db/raw-read";
export { deferredInsert, insertsAreDeferred, rawExecute, rawQuery } from "@/lib/db/raw-sql";
export { insertInto, quotedColumns, type ColumnList } from "@/lib/db/columns";
export { postgresqlPool } from "@/lib/db/postgresql";
