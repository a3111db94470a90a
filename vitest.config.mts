import path from "node:path";
import { defineConfig } from "vitest/config";

// Two halves: every test file against a throwaway SQLite file (the default), and with
// TEST_DATABASE=postgresql against a database of its own on a PostgreSQL server (lib/testing/setup.ts;
// `npm test` runs both, scripts/test.mjs). `*.postgresql.test.ts` files run only in the second half.
const onPostgresql = process.env.TEST_DATABASE === "postgresql";

/** Files that test SQLite itself, and why they do not run against PostgreSQL. */
const sqliteOnly = [
  // The SQLite migrator, its WAL mode and the drift check (lib/db/migrate.postgresql.test.ts covers PostgreSQL's migrator;
  // scripts/check-migrations.mjs diffs both).
  "lib/db/migrate.test.ts",
  // Owner-only modes of the SQLite file and its directory: PostgreSQL keeps no file of ours.
  "lib/db/file-modes.test.ts",
  // Reads the SQLite file's bytes for secrets: on PostgreSQL the server's storage is not ours to read.
  "lib/testing/secrets-at-rest.test.ts",
  // systemd-analyze on the unit in deploy/: no database in it.
  "deploy/systemd-unit.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "deploy/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...(onPostgresql ? sqliteOnly : ["**/*.postgresql.test.ts"])],
    restoreMocks: true,
    environment: "node",
    pool: "forks",
    setupFiles: ["lib/testing/setup.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    // Sized for a slow machine: tests hash passwords at test cost (lib/testing/setup.ts), and the
    // slowest test (seeding the demo platform) took 14 s on a machine run at a fifth of this one's speed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
