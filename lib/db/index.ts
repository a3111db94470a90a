// The database boundary: db(), tenantDb() and inTransaction(), and what callers need beside them.
// How a query is made fast (a cached read, a prepared statement, a transaction run by hand) is
// decided in lib/db and seen nowhere else.
export { db, disconnectDb, inTransaction, type Db, type Tx } from "@/lib/db/client";
export { tenantDb, type TenantDb } from "@/lib/db/tenant";
export { lockRow, lockRows, readLocked, type LockMode } from "@/lib/db/locks";
export { createOrConflict, isDatabaseBusy, isUniqueViolation } from "@/lib/db/errors";
