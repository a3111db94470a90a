import type BetterSqlite3 from "better-sqlite3";
import {
  type ArgType,
  type ColumnType,
  ColumnTypeEnum,
  DriverAdapterError,
  type SqlQuery,
  type SqlResultSet,
} from "@prisma/driver-adapter-utils";

// How Prisma's queries run on a better-sqlite3 connection of the service's own: the conversions Prisma's
// driver-adapter interface (@prisma/driver-adapter-utils) asks of a SQLite driver, written against that
// public interface. The connection, its prepared statements and its transactions stay the service's
// (lib/db/sqlite.ts): Prisma's queries and the service's raw statements run on the same connection and
// the same cached statements, and a transaction is `BEGIN IMMEDIATE` because this code says so.

export const SQLITE_ADAPTER_NAME = "platform-compliance-sqlite";

/** A prepared statement of the connection for `sql`, cached (lib/db/sqlite.ts). */
export type StatementOf = (sql: string) => BetterSqlite3.Statement;

/** Runs one of Prisma's queries and answers its rows, typed as Prisma's query compiler reads them. */
export function queryRows(statementOf: StatementOf, query: SqlQuery): SqlResultSet {
  try {
    const statement = statementOf(query.sql);
    const args = query.args.map((arg, i) => argValue(arg, query.argTypes[i]));
    if (!statement.reader) {
      statement.run(args);
      return { columnNames: [], columnTypes: [], rows: [] };
    }
    const columns = statement.columns();
    // Integers come as BigInt (the connection's default: lib/db/sqlite.ts), turned into numbers below.
    const rows = statement.raw(true).all(args) as unknown[][];
    const columnTypes = columnTypesOf(
      columns.map((column) => column.type),
      rows,
    );
    return {
      columnNames: columns.map((column) => column.name),
      columnTypes,
      rows: rows.map((row) => rowValues(row, columnTypes)),
    };
  } catch (error) {
    throw driverError(error);
  }
}

/** Runs one of Prisma's statements and answers how many rows it changed. */
export function executeStatement(statementOf: StatementOf, query: SqlQuery): number {
  try {
    const args = query.args.map((arg, i) => argValue(arg, query.argTypes[i]));
    return statementOf(query.sql).run(args).changes;
  } catch (error) {
    throw driverError(error);
  }
}

/** Runs a script (several statements, `;`-separated). */
export function executeScript(connection: BetterSqlite3.Database, script: string): void {
  try {
    connection.exec(script);
  } catch (error) {
    throw driverError(error);
  }
}

/** A declared column type as Prisma names it; null when the column has none (an expression) or one Prisma does not know. */
function declaredType(declared: string | null): ColumnType | null {
  switch (declared?.toUpperCase()) {
    case "DECIMAL":
      return ColumnTypeEnum.Numeric;
    case "FLOAT":
      return ColumnTypeEnum.Float;
    case "DOUBLE":
    case "DOUBLE PRECISION":
    case "NUMERIC":
    case "REAL":
      return ColumnTypeEnum.Double;
    case "TINYINT":
    case "SMALLINT":
    case "MEDIUMINT":
    case "INT":
    case "INTEGER":
    case "SERIAL":
    case "INT2":
      return ColumnTypeEnum.Int32;
    case "BIGINT":
    case "UNSIGNED BIG INT":
    case "INT8":
      return ColumnTypeEnum.Int64;
    case "DATETIME":
    case "TIMESTAMP":
      return ColumnTypeEnum.DateTime;
    case "TIME":
      return ColumnTypeEnum.Time;
    case "DATE":
      return ColumnTypeEnum.Date;
    case "TEXT":
    case "CLOB":
    case "CHARACTER":
    case "VARCHAR":
    case "VARYING CHARACTER":
    case "NCHAR":
    case "NATIVE CHARACTER":
    case "NVARCHAR":
      return ColumnTypeEnum.Text;
    case "BLOB":
      return ColumnTypeEnum.Bytes;
    case "BOOLEAN":
      return ColumnTypeEnum.Boolean;
    case "JSONB":
      return ColumnTypeEnum.Json;
    default:
      return null;
  }
}

/** Each column's type: its declared one, else what its first non-null value is (an expression's column declares none). */
function columnTypesOf(declared: (string | null)[], rows: unknown[][]): ColumnType[] {
  return declared.map((type, index) => {
    const known = declaredType(type);
    if (known !== null) return known;
    const value = rows.find((row) => row[index] !== null)?.[index];
    return value === undefined ? ColumnTypeEnum.Int32 : valueType(value);
  });
}

function valueType(value: unknown): ColumnType {
  if (typeof value === "string") return ColumnTypeEnum.Text;
  if (typeof value === "bigint") return ColumnTypeEnum.Int64;
  if (typeof value === "boolean") return ColumnTypeEnum.Boolean;
  if (typeof value === "number") return ColumnTypeEnum.UnknownNumber;
  if (value instanceof ArrayBuffer || value instanceof Uint8Array) return ColumnTypeEnum.Bytes;
  throw new Error(`SQLite answered a value of an unexpected type: ${typeof value}`);
}

/** A row's values as Prisma reads them: integers as numbers (as text past 2^53), DateTime stored as a number as ISO text. */
function rowValues(row: unknown[], columnTypes: ColumnType[]): unknown[] {
  return row.map((value, i) => {
    const type = columnTypes[i];
    if (typeof value === "number" && (type === ColumnTypeEnum.Int32 || type === ColumnTypeEnum.Int64))
      return Number.isInteger(value) ? value : Math.trunc(value);
    if ((typeof value === "number" || typeof value === "bigint") && type === ColumnTypeEnum.DateTime)
      return new Date(Number(value)).toISOString();
    if (typeof value === "bigint") {
      const asNumber = Number(value);
      return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
    }
    return value;
  });
}

/** A parameter as SQLite stores what Prisma sends: DateTime as ISO-8601 text with "+00:00", Boolean as 1/0, Bytes from base64. */
function argValue(arg: unknown, type: ArgType | undefined): unknown {
  if (arg === null) return null;
  const scalar = type?.scalarType;
  if (typeof arg === "string") {
    if (scalar === "int") return Number.parseInt(arg);
    if (scalar === "float" || scalar === "decimal") return Number.parseFloat(arg);
    if (scalar === "bigint") return BigInt(arg);
    if (scalar === "datetime") return new Date(arg).toISOString().replace("Z", "+00:00");
    if (scalar === "bytes") return Buffer.from(arg, "base64");
  }
  if (typeof arg === "boolean") return arg ? 1 : 0;
  if (arg instanceof Date) return arg.toISOString().replace("Z", "+00:00");
  return arg;
}

type SqliteError = Error & { code: string };
const isSqliteError = (error: unknown): error is SqliteError =>
  error instanceof Error && typeof (error as { code?: unknown }).code === "string";

/** SQLite's error in the form Prisma's driver-adapter interface reports (so a unique violation is Prisma's P2002). */
function driverError(error: unknown): unknown {
  if (!isSqliteError(error)) return error;
  return new DriverAdapterError({ originalCode: error.code, originalMessage: error.message, ...errorKind(error) });
}

/** The columns a constraint error names: "UNIQUE constraint failed: Employee.email, Employee.x". */
const constraintColumns = (message: string) => message.split("constraint failed: ").at(1)?.split(", ");

function errorKind({ code, message }: SqliteError) {
  switch (code) {
    case "SQLITE_CONSTRAINT_UNIQUE":
    case "SQLITE_CONSTRAINT_PRIMARYKEY": {
      const columns = constraintColumns(message);
      const fields = columns?.map((column) => column.split(".").pop()!);
      const table = columns?.at(0)?.split(".").slice(0, -1).join(".") || undefined;
      return { kind: "UniqueConstraintViolation" as const, constraint: fields ? { fields } : undefined, table };
    }
    case "SQLITE_CONSTRAINT_NOTNULL": {
      const fields = constraintColumns(message)?.map((column) => column.split(".").pop()!);
      return { kind: "NullConstraintViolation" as const, constraint: fields ? { fields } : undefined };
    }
    case "SQLITE_CONSTRAINT_FOREIGNKEY":
    case "SQLITE_CONSTRAINT_TRIGGER":
      return { kind: "ForeignKeyConstraintViolation" as const, constraint: { foreignKey: {} } };
  }
  if (code.startsWith("SQLITE_BUSY")) return { kind: "SocketTimeout" as const };
  if (message.startsWith("no such table"))
    return { kind: "TableDoesNotExist" as const, table: message.split(": ").at(1) };
  if (message.startsWith("no such column"))
    return { kind: "ColumnNotFound" as const, column: message.split(": ").at(1) };
  if (message.includes("has no column named "))
    return { kind: "ColumnNotFound" as const, column: message.split("has no column named ").at(1) };
  return { kind: "sqlite" as const, extendedCode: 1, message };
}
