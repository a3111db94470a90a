// waitForDatabase against the real PostgreSQL server of the tests (runs in the PostgreSQL half of the suite:
// TEST_DATABASE=postgresql): a server that answers with a refusal is named at once, without the password.
import { describe, expect, it } from "vitest";
import { postgresqlConnects, waitForDatabase } from "@/lib/db/reachability";
import { rejectionOf } from "@/lib/testing/errors";

const base = new URL(process.env.POSTGRESQL_TEST_URL || "postgresql://postgres@127.0.0.1:5432/postgres");

/** The test server with `database` and, when given, `password` instead of the configured ones. */
function serverUrl(database: string, password?: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  if (password !== undefined) url.password = password;
  return url.toString();
}

/** waitForDatabase with a 30 s window: what it throws, the lines it logged and how long it took. */
async function failure(url: string) {
  const lines: string[] = [];
  const started = performance.now();
  const error = await rejectionOf(Error, () =>
    waitForDatabase(postgresqlConnects(url), { url, log: (line) => lines.push(line) }),
  );
  return { message: error.message, lines, ms: performance.now() - started };
}

describe("waitForDatabase on the test server", () => {
  it("passes when the database exists", async () => {
    const lines: string[] = [];
    await waitForDatabase(postgresqlConnects(base.toString()), { url: base.toString(), log: (l) => lines.push(l) });
    expect(lines).toEqual([]);
  });

  it("names a database that does not exist at once, with the server's reason", async () => {
    const { message, lines, ms } = await failure(serverUrl("no_such_db_xyz"));
    expect(lines).toEqual([]);
    expect(ms).toBeLessThan(5_000);
    expect(message).toMatch(/^DATABASE_URL postgresql:\/\/\S+\/no_such_db_xyz cannot be used: /);
    expect(message).toContain('database "no_such_db_xyz" does not exist (3D000)');
    if (base.password) expect(message).toContain(":***@");
  });

  it("never shows the password: a server trusting the address ignores it, one asking for it refuses it", async () => {
    const { message, lines, ms } = await failure(serverUrl("no_such_db_xyz", "secretpw"));
    expect(lines).toEqual([]);
    expect(ms).toBeLessThan(5_000);
    expect(message).toMatch(/^DATABASE_URL postgresql:\/\/[^:@/]*:\*\*\*@\S+\/no_such_db_xyz cannot be used: /);
    // trust authentication (a developer's machine): the database; password authentication (CI): the password
    expect(message).toMatch(
      /database "no_such_db_xyz" does not exist \(3D000\)|password authentication failed.*\(28P01\)/,
    );
    expect(message).not.toContain("secretpw");
    expect(message).not.toContain("\n");
  });
});
