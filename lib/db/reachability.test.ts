// Waiting for the database at start, and naming it when it cannot be reached. Fake checks on a fake clock,
// and one real connection to a closed port (lib/db/reachability.postgresql.test.ts has the real server).
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { cannotReach, describeDatabaseUrl, postgresqlConnects, waitForDatabase } from "@/lib/db/reachability";
import { rejectionOf } from "@/lib/testing/errors";

const URL_WITH_PASSWORD = "postgresql://app:s3cretPW@db:5432/x";

const withCode = (code: string, message = `connect ${code} 10.0.0.5:5432`) =>
  Object.assign(new Error(message), { code });

/** A fake clock that sleep() advances, the lines logged, and a check failing with `errors` in turn, then passing. */
function harness(errors: unknown[]) {
  let time = 1_000_000;
  const lines: string[] = [];
  const sleeps: number[] = [];
  let calls = 0;
  const check = async () => {
    calls += 1;
    if (calls <= errors.length) throw errors[calls - 1];
  };
  const options = {
    url: URL_WITH_PASSWORD,
    log: (line: string) => lines.push(line),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
    },
    now: () => time,
  };
  return { check, options, lines, sleeps, calls: () => calls, elapsed: () => time - 1_000_000 };
}

describe("describeDatabaseUrl", () => {
  it.each([
    ["postgresql://app:s3cretPW@db.internal:5432/platform", "postgresql://app:***@db.internal:5432/platform"],
    ["postgres://app:p%40ss@db/x?sslmode=require", "postgres://app:***@db/x?sslmode=require"],
    ["postgresql://app@db.internal/platform", "postgresql://app@db.internal/platform"],
    ["postgresql://db.internal/platform", "postgresql://db.internal/platform"],
    ["postgresql://:s3cretPW@db/x", "postgresql://:***@db/x"],
    [
      "postgresql://app:pw@db/x?sslmode=verify-full&password=other",
      "postgresql://app:***@db/x?sslmode=verify-full&password=***",
    ],
    ["postgresql://db/x?sslpassword=keypass&user=app", "postgresql://db/x?sslpassword=***&user=app"],
    ["file:./data/app.db", "file:./data/app.db"],
    ["file:/var/lib/platform-compliance-service/app.db", "file:/var/lib/platform-compliance-service/app.db"],
    // Malformed: the URL parser refuses these; the password-looking part is hidden all the same.
    ["postgres://app:s3cretPW@/db?host=/run/postgresql", "postgres://app:***@/db?host=/run/postgresql"],
    ["postgresql://app:s3cret/PW@db[/x", "postgresql://app:***@db[/x"],
    ["postgresql://app:s3cretPW@[::1/x", "postgresql://app:***@[::1/x"],
    ["postgres:s3cretPW@db", "postgres:***@db"],
    ["not a url", "not a url"],
    ["", ""],
  ])("%s -> %s", (url, described) => {
    expect(describeDatabaseUrl(url)).toBe(described);
  });
});

describe("waitForDatabase", () => {
  it("returns at once when the check passes, logging nothing", async () => {
    const { check, options, lines, calls } = harness([]);
    await waitForDatabase(check, options);
    expect(calls()).toBe(1);
    expect(lines).toEqual([]);
  });

  it("retries while the server cannot be reached, says so once, and returns when it answers", async () => {
    const { check, options, lines, sleeps, calls } = harness([
      withCode("ECONNREFUSED"),
      withCode("57P03", "the database system is starting up"),
      new Error("Connection terminated unexpectedly"),
    ]);
    await waitForDatabase(check, options);
    expect(calls()).toBe(4);
    expect(sleeps).toEqual([1000, 1000, 1000]);
    expect(lines).toEqual([
      "DATABASE_URL postgresql://app:***@db:5432/x cannot be reached (ECONNREFUSED); retrying for up to 30 s",
    ]);
  });

  it("gives up after the window with one line naming DATABASE_URL and the last reason", async () => {
    const refused = withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5999");
    const { check, options, lines, elapsed } = harness(Array.from({ length: 100 }, () => refused));
    const error = await rejectionOf(Error, () => waitForDatabase(check, options));
    expect(error.message).toBe(
      "DATABASE_URL postgresql://app:***@db:5432/x cannot be reached after 30 s: connect ECONNREFUSED 127.0.0.1:5999",
    );
    expect(elapsed()).toBe(30_000);
    expect(lines).toHaveLength(1);
  });

  it("takes its window and interval from the options, and sleeps no further than the deadline", async () => {
    const { check, options, sleeps, lines } = harness(Array.from({ length: 100 }, () => withCode("EAI_AGAIN")));
    const error = await rejectionOf(Error, () =>
      waitForDatabase(check, { ...options, windowMs: 1500, intervalMs: 400 }),
    );
    expect(sleeps).toEqual([400, 400, 400, 300]);
    expect(lines[0]).toMatch(/\(EAI_AGAIN\); retrying for up to 1\.5 s$/);
    expect(error.message).toMatch(
      /^DATABASE_URL postgresql:\/\/app:\*\*\*@db:5432\/x cannot be reached after 1\.5 s: /,
    );
  });

  it.each([
    ["a refused password", withCode("28P01", 'password authentication failed for user "app"')],
    ["an unknown database", withCode("3D000", 'database "x" does not exist')],
    ["a bad URL", Object.assign(new TypeError("Invalid URL"), { code: "ERR_INVALID_URL" })],
    ["an error without a code", new Error("something else")],
  ])("throws %s at once, as one line naming DATABASE_URL and the cause", async (_title, cause) => {
    const { check, options, lines, calls } = harness([cause]);
    const error = await rejectionOf(Error, () => waitForDatabase(check, options));
    expect(calls()).toBe(1);
    expect(lines).toEqual([]);
    expect(error.message).toMatch(/^DATABASE_URL postgresql:\/\/app:\*\*\*@db:5432\/x cannot be used: /);
    expect(error.message).toContain((cause as Error).message);
    expect(error.message).not.toContain("\n");
  });

  it("names the code when the message does not", async () => {
    const { check, options } = harness([withCode("3D000", 'database "x" does not exist')]);
    expect((await rejectionOf(Error, () => waitForDatabase(check, options))).message).toBe(
      'DATABASE_URL postgresql://app:***@db:5432/x cannot be used: database "x" does not exist (3D000)',
    );
  });

  it("keeps the password out of every message, even one repeating the URL or the password", async () => {
    const url = "postgresql://app:s3cret%2FPW@db:5432/x";
    const repeats = [
      withCode("ECONNREFUSED", `could not connect to ${url}`),
      withCode("ECONNREFUSED", "connect to postgresql://app:s3cret/PW@db/x failed"),
      withCode("ECONNREFUSED", "password s3cret/PW and s3cret%2FPW"),
    ];
    const lines: string[] = [];
    for (const cause of repeats) {
      const { check, options } = harness(Array.from({ length: 100 }, () => cause));
      const error = await rejectionOf(Error, () =>
        waitForDatabase(check, { ...options, url, log: (l) => lines.push(l) }),
      );
      lines.push(error.message);
      const { check: once } = harness([Object.assign(new Error(cause.message), { code: "28P01" })]);
      lines.push((await rejectionOf(Error, () => waitForDatabase(once, { ...options, url }))).message);
    }
    expect(lines.length).toBeGreaterThan(6);
    for (const line of lines) {
      expect(line).not.toMatch(/s3cret/);
      expect(line).toContain("postgresql://app:***@db:5432/x");
    }
  });

  it("puts a multi-line cause on one line", async () => {
    const { check, options } = harness([new Error("first line\n  second line\r\nthird")]);
    expect((await rejectionOf(Error, () => waitForDatabase(check, options))).message).toBe(
      "DATABASE_URL postgresql://app:***@db:5432/x cannot be used: first line second line third",
    );
  });
});

describe("cannotReach", () => {
  it.each([
    ["ECONNREFUSED", withCode("ECONNREFUSED"), true],
    ["ENOTFOUND", withCode("ENOTFOUND"), true],
    ["EAI_AGAIN", withCode("EAI_AGAIN"), true],
    ["ETIMEDOUT", withCode("ETIMEDOUT"), true],
    ["EHOSTUNREACH", withCode("EHOSTUNREACH"), true],
    ["ECONNRESET", withCode("ECONNRESET"), true],
    ["57P03", withCode("57P03", "the database system is starting up"), true],
    ["pg's pool timeout", new Error("timeout exceeded when trying to connect"), true],
    ["pg's connection timeout", new Error("Connection terminated due to connection timeout"), true],
    ["pg's client timeout", new Error("timeout expired"), true],
    ["an AggregateError of refused addresses", new AggregateError([withCode("ECONNREFUSED")], ""), true],
    ["a cause that was refused", new Error("wrapped", { cause: withCode("ECONNREFUSED") }), true],
    ["28P01", withCode("28P01"), false],
    ["3D000", withCode("3D000"), false],
    ["a string", "ECONNREFUSED", false],
    ["null", null, false],
  ])("%s: %s", (_title, error, expected) => {
    expect(cannotReach(error)).toBe(expected);
  });
});

describe("a real connection to a closed port", () => {
  it("fails after at least the window, with one line naming DATABASE_URL without the password", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `postgresql://app:s3cretPW@127.0.0.1:${port}/x`;
    const lines: string[] = [];
    const started = performance.now();
    const error = await rejectionOf(Error, () =>
      waitForDatabase(postgresqlConnects(url, 1000), {
        url,
        windowMs: 1500,
        intervalMs: 200,
        log: (l) => lines.push(l),
      }),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
    expect(error.message).toBe(
      `DATABASE_URL postgresql://app:***@127.0.0.1:${port}/x cannot be reached after 1.5 s: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(lines).toEqual([
      `DATABASE_URL postgresql://app:***@127.0.0.1:${port}/x cannot be reached (ECONNREFUSED); retrying for up to 1.5 s`,
    ]);
  });
});

describe("postgresqlConnects", () => {
  it("gives up on a server that accepts the connection and never answers, as ETIMEDOUT", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as { port: number };
      const url = `postgresql://app:s3cretPW@127.0.0.1:${port}/x`;
      const started = performance.now();
      const error = await rejectionOf(Error, postgresqlConnects(url, 300));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(error).toMatchObject({ code: "ETIMEDOUT", message: "connect ETIMEDOUT: no answer within 0.3 s" });
      expect(cannotReach(error)).toBe(true);
    } finally {
      silent.close();
    }
  });
});
