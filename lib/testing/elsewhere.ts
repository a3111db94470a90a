import Database from "better-sqlite3";
import pg from "pg";
import { databaseFile, databaseProvider, env } from "@/lib/env";

/**
 * Runs one statement (with `?` parameters) on a connection of its own, committed at once, as
 * another instance of the service would make it: the service's own connections learn of it only
 * from the database.
 */
export async function commitElsewhere(sql: string, values: unknown[] = []) {
  if (databaseProvider() === "sqlite") {
    const other = new Database(databaseFile());
    try {
      other.prepare(sql).run(...values);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: env().DATABASE_URL });
  await other.connect();
  try {
    let index = 0;
    await other.query(
      sql.replace(/\?/g, () => `$${++index}`),
      values,
    );
  } finally {
    await other.end();
  }
}
