import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createRecipient } from "@/lib/recipients/recipients";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { createTransfer } from "@/lib/transfers/transfers";
import { GET } from "./route";

const get = (id: string, apiKey?: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, params: { id }, path: `/v1/transfers/${id}`, headers });

const transferIn = (scope: Scope, amount = "7.25") =>
  withScope(scope, async () => {
    const recipient = await createRecipient({ name: "Supplier" });
    return createTransfer({ recipientId: recipient.id, amount, currency: "EUR" });
  });

describe("GET /v1/transfers/{id}", () => {
  it("200: the transfer", async () => {
    const { apiKey, scope } = await platformWithKey();
    const transfer = await transferIn(scope);
    const response = await get(transfer.id, apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: transfer.id,
      recipientId: transfer.recipientId,
      amount: "7.25",
      currency: "EUR",
      status: "pending",
      createdAt: transfer.createdAt.toISOString(),
    });
  });

  it("200 by an employee session", async () => {
    const { session, account } = await signedInEmployee();
    const transfer = await transferIn({ platformId: account.id, accountId: account.id }, "1000");
    const response = await call(GET, { session, params: { id: transfer.id }, path: `/v1/transfers/${transfer.id}` });
    expect(response.status).toBe(200);
    expect(response.body.amount).toBe("1000");
  });

  it("200 for a sub-account's transfer with Service-Account-Id, 404 without it", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const transfer = await transferIn({ platformId: account.id, accountId: sub.id });
    expect((await get(transfer.id, apiKey)).status).toBe(404);
    const acting = await get(transfer.id, apiKey, { "service-account-id": sub.id });
    expect(acting.status).toBe(200);
    expect(acting.body.id).toBe(transfer.id);
  });

  it("404 for an unknown transfer, a malformed id, and another platform's transfer", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const transfer = await transferIn(theirs.scope);
    for (const id of ["tr_doesnotexist", "tr_UPPER", "rcp_abc", transfer.id]) {
      const response = await get(id, mine.apiKey);
      expect(response.status, id).toBe(404);
      expect(response.body).toMatchObject({ error_code: "err_not_found", http_code: 404 });
    }
    expect((await get(transfer.id, theirs.apiKey)).status).toBe(200);
  });
});
