// The PostgreSQL server the tests and the migration checks use (they create databases of their own on it).
import pg from "pg";

export const postgresqlTestUrl = () =>
  process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

/** Whether the server answers; the reason when it does not. */
export async function postgresqlReachable(url = postgresqlTestUrl()) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      reason: `no PostgreSQL server at ${url.replace(/\/\/[^@/]*@/, "//")} (${error.message || error.code})`,
    };
  } finally {
    await client.end().catch(() => {});
  }
}
