import { describe, expect, it } from "vitest";
import { POST as createTransfer } from "@/app/v1/sandbox/transfers/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createRecipient } from "@/lib/recipients/recipients";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";
import { DELETE } from "./route";

const remove = (id: string, options: Parameters<typeof call>[1] = {}) =>
  call(DELETE, { method: "DELETE", params: { id }, ...options });
const transferTo = (recipientId: string, apiKey: string, headers?: Record<string, string>) =>
  call(createTransfer, { method: "POST", apiKey, headers, body: { recipientId, amount: "10.00", currency: "EUR" } });
const saveRecipient = (scope: Scope, name = "Ada Lovelace") => withScope(scope, () => createRecipient({ name }));

describe("DELETE /v1/recipients/{id}", () => {
  it("200: the recipient with isActive false and deletedAt", async () => {
    const { apiKey, scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    const response = await remove(recipient.id, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: recipient.id,
      name: "Ada Lovelace",
      isActive: false,
      deletedAt: expect.any(String),
      createdAt: recipient.createdAt.toISOString(),
    });
  });

  it("deleted: new transfers to it are refused with 409, a second delete is 404; other recipients still work", async () => {
    const { apiKey, scope } = await platformWithKey();
    const deleted = await saveRecipient(scope, "Leaving");
    const kept = await saveRecipient(scope, "Staying");
    expect((await transferTo(deleted.id, apiKey)).status).toBe(201);
    expect((await remove(deleted.id, { apiKey })).status).toBe(200);
    const refused = await transferTo(deleted.id, apiKey);
    expectError(refused, 409, "err_conflict");
    const again = await remove(deleted.id, { apiKey });
    expectError(again, 404, "err_not_found");
    expect((await transferTo(kept.id, apiKey)).status).toBe(201);
    // The transfer made before the deletion still points at it.
    expect(await db().transfer.count({ where: { recipientId: deleted.id } })).toBe(1);
  });

  it("200 from an employee session, no TOTP code needed", async () => {
    const { account, session } = await signedInEmployee();
    const recipient = await saveRecipient({ platformId: account.id, accountId: account.id });
    expect((await remove(recipient.id, { session })).status).toBe(200);
  });

  it("Service-Account-Id deletes the sub-account's recipient, not one of the caller's own account", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, async () =>
      tenantDb().account.create({
        data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
      }),
    );
    const headers = { "service-account-id": sub.id };
    const subRecipient = await saveRecipient({ platformId: scope.platformId, accountId: sub.id });
    const ownRecipient = await saveRecipient(scope);
    expect((await remove(subRecipient.id, { apiKey })).status).toBe(404);
    expect((await remove(ownRecipient.id, { apiKey, headers })).status).toBe(404);
    expect((await remove(subRecipient.id, { apiKey, headers })).status).toBe(200);
    expect((await transferTo(subRecipient.id, apiKey, headers)).status).toBe(409);
  });

  it("404 for an unknown, malformed or other platform's recipient, which stays usable", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const theirs = await saveRecipient(other.scope);
    for (const id of ["rcp_doesnotexist", "not-an-id", "rcp_UPPER", theirs.id]) {
      const response = await remove(id, { apiKey });
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect((await transferTo(theirs.id, other.apiKey)).status).toBe(201);
  });

  it("401 without a credential", async () => {
    const { scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    expect((await remove(recipient.id)).status).toBe(401);
    expect((await db().recipient.findUniqueOrThrow({ where: { id: recipient.id } })).deletedAt).toBeNull();
  });

  it("writes a recipient.delete audit record", async () => {
    const { apiKey, scope } = await platformWithKey();
    const recipient = await saveRecipient(scope);
    await remove(recipient.id, { apiKey });
    await remove(recipient.id, { apiKey });
    const events = await db().auditEvent.findMany({
      where: { platformId: scope.platformId, action: "recipient.delete" },
      orderBy: { status: "asc" },
    });
    expect(events.map((event) => [event.targetId, event.status])).toEqual([
      [recipient.id, 200],
      [recipient.id, 404],
    ]);
  });
});
