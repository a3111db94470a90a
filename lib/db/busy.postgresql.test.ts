// A busy PostgreSQL database answers 503 err_unavailable with Retry-After, never a hung request and
// never a 500: every pooled connection in use past DATABASE_POOL_TIMEOUT_MS, or a row held past
// DATABASE_LOCK_TIMEOUT_MS. This file's process runs with a pool of one connection and short waits.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db";
import { postgresqlPool } from "@/lib/db/postgresql";
import { resetEnv } from "@/lib/env";
import { platformWithKey } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { createVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import * as delegatedUsers from "@/app/v1/delegated_users/route";
import * as payIn from "@/app/v1/sandbox/virtual_accounts/[idOrKey]/pay_in/route";

beforeAll(async () => {
  await disconnectDb();
  Object.assign(process.env, {
    DATABASE_POOL_SIZE: "1",
    DATABASE_POOL_TIMEOUT_MS: "300",
    DATABASE_LOCK_TIMEOUT_MS: "300",
  });
  resetEnv();
});

afterAll(async () => {
  await disconnectDb();
  for (const name of ["DATABASE_POOL_SIZE", "DATABASE_POOL_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS"])
    delete process.env[name];
  resetEnv();
});

describe("a busy database", () => {
  it("every connection in use: a read and a write answer 503 with Retry-After within the pool timeout, change nothing, and work again once one is free", async () => {
    const { apiKey } = await platformWithKey();
    const held = await postgresqlPool().connect();
    let released = false;
    try {
      const started = Date.now();
      const [read, write] = await Promise.all([
        call(delegatedUsers.GET, { apiKey }),
        call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId: "while-busy" } }),
      ]);
      for (const answer of [read, write]) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ error_code: "err_unavailable", http_code: 503 });
        expect(answer.headers.get("retry-after")).toBe("1");
      }
      // Answered after the pool's wait, not after some much longer default.
      expect(Date.now() - started).toBeLessThan(20_000);
      held.release();
      released = true;
      expect((await call(delegatedUsers.GET, { apiKey })).status).toBe(200);
      const created = await call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId: "while-busy" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ externalId: "while-busy" });
    } finally {
      if (!released) held.release();
    }
  });

  it("a row held past the lock timeout: 503, and the pay-in is not recorded", async () => {
    await disconnectDb();
    Object.assign(process.env, { DATABASE_POOL_SIZE: "4" });
    resetEnv();
    const { apiKey, scope } = await platformWithKey();
    const virtualAccount = await withScope(scope, () => createVirtualAccount({ currency: "EUR" }));
    // Another session holds the virtual account's row, as a slow deactivation would.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM "VirtualAccount" WHERE "id" = $1 FOR UPDATE`, [virtualAccount.id]);
      const answer = await call(payIn.POST, {
        method: "POST",
        apiKey,
        params: { idOrKey: virtualAccount.id },
        body: { amount: "10.00", currency: "EUR" },
      });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error_code: "err_unavailable" });
      expect(answer.headers.get("retry-after")).toBe("1");
      const { rows } = await other.query(`SELECT count(*)::int AS n FROM "Transaction" WHERE "virtualAccountId" = $1`, [
        virtualAccount.id,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await other.query("ROLLBACK");
      await other.end();
    }
  });
});
