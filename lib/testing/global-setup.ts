// The PostgreSQL half of the suite (TEST_DATABASE=postgresql): each test file creates a database of its
// own named after this run (lib/testing/setup.ts); they are dropped here once every file has finished,
// not by each file, so work a file left running (a background write after its last test) never meets
// a vanished database, and other runs on the same server keep theirs.
import { randomBytes } from "node:crypto";
import pg from "pg";

export default function globalSetup() {
  if (process.env.TEST_DATABASE !== "postgresql") return;
  const run = `pcs_test_${randomBytes(4).toString("hex")}`;
  process.env.PCS_TEST_RUN = run;
  return async () => {
    const client = new pg.Client({
      connectionString: process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${run}_%`],
      );
      for (const { datname } of rows) {
        await client
          .query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
          .catch((error) => console.warn(`could not drop ${datname}: ${error.message}`));
      }
    } finally {
      await client.end();
    }
  };
}
