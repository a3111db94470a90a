import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createRecipient, deleteRecipient } from "@/lib/recipients/recipients";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectCreated } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { getTransfer } from "@/lib/transfers/transfers";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });
const saveRecipient = (scope: Scope) => withScope(scope, () => createRecipient({ name: "Recipient" }));

describe("POST /v1/sandbox/transfers", () => {
  it("201: a pending transfer to a saved recipient, readable with getTransfer in the same account only", async () => {
    const { apiKey, scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    const response = await create({ apiKey, body: { recipientId: recipient.id, amount: "250.00", currency: "EUR" } });
    expectCreated(response, /^tr_[a-z0-9]+$/, {
      recipientId: recipient.id,
      amount: "250.00",
      currency: "EUR",
      status: "pending",
    });
    const read = await withScope(scope, () => getTransfer({ id: response.body.id }));
    expect(JSON.parse(JSON.stringify(read))).toEqual(response.body);
    const other = await platformWithKey();
    await expect(withScope(other.scope, () => getTransfer({ id: response.body.id }))).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(withScope(scope, () => getTransfer({ id: "tr_unknown" }))).rejects.toMatchObject({
      kind: "not_found",
    });
  });

  it("201 from an employee session, no TOTP code needed", async () => {
    const { account, session } = await signedInEmployee({ totp: true });
    const recipient = await saveRecipient({ platformId: account.id, accountId: account.id });
    expect((await create({ session, body: { recipientId: recipient.id, amount: "1", currency: "EUR" } })).status).toBe(
      201,
    );
  });

  it("201 for a sub-account's recipient with Service-Account-Id; 404 without it", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, async () =>
      tenantDb().account.create({
        data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
      }),
    );
    const recipient = await saveRecipient({ platformId: scope.platformId, accountId: sub.id });
    const body = { recipientId: recipient.id, amount: "1", currency: "EUR" };
    expect((await create({ apiKey, body })).status).toBe(404);
    const response = await create({ apiKey, headers: { "service-account-id": sub.id }, body });
    expect(response.status).toBe(201);
    expect((await db().transfer.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(sub.id);
  });

  it("404 Recipient not found for an unknown or another platform's recipient", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const theirs = await saveRecipient(other.scope);
    for (const recipientId of ["rcp_doesnotexist", theirs.id]) {
      const response = await create({ apiKey, body: { recipientId, amount: "1", currency: "EUR" } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error_code: "err_not_found", message: "Recipient not found" });
    }
    expect(await db().transfer.count({ where: { recipientId: theirs.id } })).toBe(0);
  });

  it("409 err_conflict for a deleted recipient; nothing is created", async () => {
    const { apiKey, scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    await withScope(scope, () => deleteRecipient({ id: recipient.id }));
    const response = await create({ apiKey, body: { recipientId: recipient.id, amount: "1", currency: "EUR" } });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error_code: "err_conflict", details: { recipientId: "is deleted" } });
    expect(await db().transfer.count({ where: { recipientId: recipient.id } })).toBe(0);
  });

  it("422 naming each bad field", async () => {
    const { apiKey, scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    const cases: [object, string[]][] = [
      [{}, ["amount", "currency", "recipientId"]],
      [{ recipientId: "acct_123", amount: "1", currency: "EUR" }, ["recipientId"]],
      [{ recipientId: recipient.id, amount: "0.00", currency: "EUR" }, ["amount"]],
      [{ recipientId: recipient.id, amount: 1.5, currency: "EUR" }, ["amount"]],
      [{ recipientId: recipient.id, amount: "1", currency: "E" }, ["currency"]],
    ];
    for (const [body, fields] of cases) {
      const response = await create({ apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.body.details ?? {}).sort()).toEqual(fields);
    }
  });
});
