// Raw statements inside a PostgreSQL transaction go to the database on the transaction's own
// connection, through the driver adapter's transaction rather than Prisma's client (lib/db/raw-sql.ts,
// lib/db/postgresql.ts): Prisma's handling of one raw statement cost about a sixth of a write's CPU.
// Still one transaction with Prisma's queries in it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb, inTransaction } from "@/lib/db";
import { postgresqlPool } from "@/lib/db/postgresql";
import { resetEnv } from "@/lib/env";
import { currentTransaction } from "@/lib/db/client";
import { rawExecute } from "@/lib/db/raw-sql";
import { newId } from "@/lib/ids/generate";
import { call } from "@/lib/testing/http";
import { pgQueriesDuring } from "@/lib/testing/pg-queries";
import { platformWithKey } from "@/lib/testing/factories";
import * as delegatedUsers from "@/app/v1/delegated_users/route";

type Sent = { text: string; client: unknown };

/** What `work` sends on any pg connection: each statement's text, and the connection it went on. */
async function sentBy(work: () => Promise<unknown>): Promise<Sent[]> {
  return (await pgQueriesDuring(work)).map((query) => ({
    text: query.text.replace(/\s+/g, " ").trim(),
    client: query.client,
  }));
}

const INSERT = `INSERT INTO "DelegatedUser" ("id", "accountId", "externalId", "createdAt") VALUES (:id, :accountId, :externalId, :createdAt)`;

afterEach(() => vi.unstubAllEnvs());

describe("raw statements in a PostgreSQL transaction", () => {
  it("go on the transaction's own connection, not through Prisma: Prisma's queries in it see them, and a rollback takes them back", async () => {
    const { account } = await platformWithKey();
    const insert = (externalId: string) =>
      rawExecute(INSERT, { id: newId("du"), accountId: account.id, externalId, createdAt: new Date() });
    const inTheTransaction: number[] = [];
    const sent = await sentBy(() =>
      inTransaction(async () => {
        // Begun by its first statement, not before.
        expect(currentTransaction()?.connection?.begun).toBe(false);
        expect(await insert("kept")).toBe(1);
        expect(currentTransaction()?.connection?.begun).toBe(true);
        inTheTransaction.push(await db().delegatedUser.count({ where: { accountId: account.id } }));
      }),
    );
    expect(inTheTransaction).toEqual([1]);
    const inserts = sent.filter((statement) => statement.text.startsWith('INSERT INTO "DelegatedUser"'));
    expect(inserts.map((statement) => statement.text)).toEqual([expect.stringContaining("VALUES ($1, $2, $3, $4)")]);
    // On the connection that sent the transaction's BEGIN and COMMIT: one transaction.
    const begin = sent.find((statement) => statement.text === "BEGIN")!;
    const commit = sent.find((statement) => statement.text === "COMMIT")!;
    expect(inserts[0]!.client).toBe(begin.client);
    expect(commit.client).toBe(begin.client);

    await expect(
      inTransaction(async () => {
        await insert("rolled back");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const kept = await db().delegatedUser.findMany({ where: { accountId: account.id }, select: { externalId: true } });
    expect(kept).toEqual([{ externalId: "kept" }]);
  });

  it("a stray statement of a transaction that has ended is refused, never sent on the connection the pool has taken back", async () => {
    const { account } = await platformWithKey();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let stray!: Promise<number>;
    await inTransaction(async () => {
      // Started inside the transaction, so it carries the transaction's context when it runs later.
      stray = (async () => {
        await ended;
        return rawExecute(INSERT, {
          id: newId("du"),
          accountId: account.id,
          externalId: "stray",
          createdAt: new Date(),
        });
      })();
    });
    end();
    await expect(stray).rejects.toThrow();
    expect(await db().delegatedUser.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("store a DateTime as the instant it is, whatever the process's time zone", async () => {
    // pg's own form of a Date is local time with its offset, which a TIMESTAMP column takes as UTC.
    vi.stubEnv("TZ", "America/New_York");
    const { apiKey } = await platformWithKey();
    const made = await call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId: "in New York" } });
    expect(made.status).toBe(201);
    const { id, createdAt } = made.body as { id: string; createdAt: string };
    const stored = await db().delegatedUser.findUniqueOrThrow({ where: { id } });
    expect(stored.createdAt.toISOString()).toBe(createdAt);
  });

  it("a duplicate refused by the unique index inside the transaction answers the insert's own 409, as through Prisma", async () => {
    const { apiKey } = await platformWithKey();
    const first = await call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId: "twice" } });
    const second = await call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId: "twice" } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    // The insert's own conflict, naming the field: pg's error names the table whose index refused it.
    expect(second.body).toMatchObject({
      error_code: "err_conflict",
      message: "A delegated user with this externalId already exists",
      details: { externalId: "already exists" },
    });
  });
});

describe("the transaction's connection goes back to the pool however the transaction ends", () => {
  // One connection in all: a transaction that kept its connection would leave the next one waiting, refused
  // after the pool's wait.
  beforeAll(async () => {
    await disconnectDb();
    Object.assign(process.env, { DATABASE_POOL_SIZE: "1", DATABASE_POOL_TIMEOUT_MS: "2000" });
    resetEnv();
  });
  afterAll(async () => {
    await disconnectDb();
    for (const name of ["DATABASE_POOL_SIZE", "DATABASE_POOL_TIMEOUT_MS"]) delete process.env[name];
    resetEnv();
  });

  const insertFor = (accountId: string, externalId: string) =>
    rawExecute(INSERT, { id: newId("du"), accountId, externalId, createdAt: new Date() });
  const externalIdsOf = async (accountId: string) =>
    (await db().delegatedUser.findMany({ where: { accountId }, select: { externalId: true } })).map(
      (row) => row.externalId,
    );

  it("commits, throws, and times out, one after the other on a pool of one: each ends, and the next gets the connection", async () => {
    const { account } = await platformWithKey();
    await inTransaction(() => insertFor(account.id, "committed"));
    await expect(
      inTransaction(async () => {
        await insertFor(account.id, "thrown");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      inTransaction(async () => {
        await insertFor(account.id, "timed out");
        await rawExecute("SET LOCAL statement_timeout = 50");
        await rawExecute("SELECT pg_sleep(2)");
      }),
    ).rejects.toThrow(/statement timeout/);
    // Every transaction has given its connection back: a fourth runs at once, and only the commits stayed.
    await inTransaction(() => insertFor(account.id, "after"));
    expect((await externalIdsOf(account.id)).sort()).toEqual(["after", "committed"]);
    expect(postgresqlPool().idleCount).toBe(postgresqlPool().totalCount);
  });
});
