import { describe, expect, it } from "vitest";
import { GET as listTransactions } from "@/app/v1/transactions/route";
import { DELETE as deactivate } from "@/app/v1/virtual_accounts/[idOrKey]/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey } from "@/lib/testing/factories";
import { call, expectCreated, expectError } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { createVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { POST } from "./route";

const payIn = (idOrKey: string, options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", params: { idOrKey }, ...options });
const openAccount = (scope: Scope, currency = "EUR", key?: string) =>
  withScope(scope, () => createVirtualAccount({ currency, key }));

describe("POST /v1/sandbox/virtual_accounts/{idOrKey}/pay_in", () => {
  it("201 by id: a completed pay_in transaction of the virtual account, listed in /v1/transactions", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope);
    const response = await payIn(account.id, {
      apiKey,
      body: { amount: "125.50", currency: "EUR", walletAddress: "0xAbC123" },
    });
    expectCreated(response, /^txn_[a-z0-9]+$/, {
      virtualAccountId: account.id,
      walletAddress: "0xAbC123",
      amount: "125.50",
      currency: "EUR",
      type: "pay_in",
      status: "completed",
    });
    const listed = await call(listTransactions, { apiKey, path: `/v1/transactions?virtualAccountId=${account.id}` });
    expect(listed.body.items).toEqual([response.body]);
  });

  it("201 by key, without a wallet address; the amount keeps its decimals and loses leading zeros", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "USDC", "wallet-7");
    const response = await payIn("wallet-7", { apiKey, body: { amount: "0007.10000000", currency: "USDC" } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ virtualAccountId: account.id, walletAddress: null, amount: "7.10000000" });
  });

  it("201 for a sub-account's virtual account with Service-Account-Id", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, async () =>
      tenantDb().account.create({
        data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
      }),
    );
    const account = await openAccount({ platformId: scope.platformId, accountId: sub.id }, "EUR", "sub-va");
    expect((await payIn("sub-va", { apiKey, body: { amount: "1", currency: "EUR" } })).status).toBe(404);
    const response = await payIn("sub-va", {
      apiKey,
      headers: { "service-account-id": sub.id },
      body: { amount: "1", currency: "EUR" },
    });
    expect(response.status).toBe(201);
    expect(response.body.virtualAccountId).toBe(account.id);
    expect((await db().transaction.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(sub.id);
  });

  it("409 err_conflict once the virtual account is deactivated; nothing is recorded", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "EUR", "closing");
    await call(deactivate, { method: "DELETE", params: { idOrKey: account.id }, apiKey });
    for (const segment of [account.id, "closing"]) {
      const response = await payIn(segment, { apiKey, body: { amount: "5", currency: "EUR" } });
      expectError(response, 409, "err_conflict");
      expect(response.body.message).toContain("deactivated");
    }
    expect(await db().transaction.count({ where: { virtualAccountId: account.id } })).toBe(0);
  });

  it("422 for a currency other than the account's, naming currency", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope, "EUR");
    const response = await payIn(account.id, { apiKey, body: { amount: "5", currency: "USD" } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      error_code: "err_validation",
      details: { currency: expect.stringContaining("EUR") },
    });
  });

  it("422 naming each bad field", async () => {
    const { apiKey, scope } = await platformWithKey();
    const account = await openAccount(scope);
    const cases: [object, string[]][] = [
      [{}, ["amount", "currency"]],
      [{ amount: 5, currency: "EUR" }, ["amount"]],
      [{ amount: "0", currency: "EUR" }, ["amount"]],
      [{ amount: "0.000", currency: "EUR" }, ["amount"]],
      [{ amount: "-1", currency: "EUR" }, ["amount"]],
      [{ amount: "1e3", currency: "EUR" }, ["amount"]],
      [{ amount: "1.123456789", currency: "EUR" }, ["amount"]],
      [{ amount: "1".repeat(16), currency: "EUR" }, ["amount"]],
      [{ amount: "1", currency: "euro" }, ["currency"]],
      [{ amount: "1", currency: "EUR", walletAddress: "" }, ["walletAddress"]],
      [{ amount: "1", currency: "EUR", walletAddress: "not a wallet" }, ["walletAddress"]],
    ];
    for (const [body, fields] of cases) {
      const response = await payIn(account.id, { apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.body.details ?? {}).sort()).toEqual(fields);
    }
    expect(await db().transaction.count({ where: { virtualAccountId: account.id } })).toBe(0);
  });

  it("404 for an unknown id or key, a malformed segment, or another platform's account", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const theirs = await openAccount(other.scope, "EUR", "their-va");
    for (const segment of ["va_unknown", "unknown-key", "a/b", theirs.id, "their-va"]) {
      const response = await payIn(segment, { apiKey, body: { amount: "1", currency: "EUR" } });
      expect(response.status, segment).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect(await db().transaction.count({ where: { virtualAccountId: theirs.id } })).toBe(0);
  });
});
