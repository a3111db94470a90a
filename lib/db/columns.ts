import type { Prisma } from "@/lib/generated/prisma/client";

// Raw statements' column lists. Each domain's raw statements (lib/<domain>/store.ts) declare the columns
// they read or write with the model's columns they leave out on purpose, and lib/db/column-lists.test.ts
// checks every list against the Prisma model on both databases: a column added to the schema and named
// by no list fails there instead of compiling and answering 500.

/** A raw statement's columns of one model, and the model's columns it leaves out on purpose. */
export type ColumnList<Model> = {
  model: Prisma.ModelName;
  columns: readonly (keyof Model & string)[];
  omitted: readonly (keyof Model & string)[];
};

/** `alias."a", alias."b"`: a column list as SQL. */
export const quotedColumns = (alias: string, columns: readonly string[]) =>
  columns.map((column) => `${alias}"${column}"`).join(", ");

/** `INSERT INTO "table" ("a", "b") VALUES (:a, :b)`. */
export const insertInto = (table: string, columns: readonly string[]) =>
  `INSERT INTO "${table}" (${quotedColumns("", columns)}) VALUES (${columns.map((column) => `:${column}`).join(", ")})`;
