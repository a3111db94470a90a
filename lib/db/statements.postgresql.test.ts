// How many statements a request sends to PostgreSQL (docs/operations.md, Running on PostgreSQL): a
// key-authenticated read at most 2, a simple write (POST /v1/delegated_users) 2 as well: its one
// statement needs no BEGIN and COMMIT (any BEGIN and COMMIT would be counted). Counted at the driver: every query any pg client of the process sends (Prisma's
// adapter and the raw reads share the pg module). Counting is deterministic, unlike time.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/lib/testing/http";
import { pgQueriesDuring } from "@/lib/testing/pg-queries";
import { platformWithKey } from "@/lib/testing/factories";
import { withScope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { flushKeyUses } from "@/lib/api-keys/last-use";
import * as delegatedUsers from "@/app/v1/delegated_users/route";
import * as delegatedUser from "@/app/v1/delegated_users/[id]/route";

/** The statements `work` sends, as their SQL text (BEGIN and COMMIT included). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  return (await pgQueriesDuring(work)).map((query) => query.text.replace(/\s+/g, " ").trim());
}

const create = (apiKey: string, externalId: string, headers: Record<string, string> = {}) =>
  call(delegatedUsers.POST, { method: "POST", apiKey, body: { externalId }, headers });

describe("statements per request on PostgreSQL", () => {
  it("a key-authenticated read sends 2: the key (with its account) and the read, also with Service-Account-Id; lastUsedAt is written later, apart", async () => {
    const { apiKey, account } = await platformWithKey();
    const made = await create(apiKey, "reader");
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    await flushKeyUses();
    // The key's first use since its lastUsedAt was written: the time is noted, not written on the way.
    await db().apiKey.updateMany({ data: { lastUsedAt: null } });

    const read = () => call(delegatedUser.GET, { apiKey, params: { id } });
    let answer: Awaited<ReturnType<typeof read>> | undefined;
    const plain = await statementsOf(async () => (answer = await read()));
    expect(answer!.status).toBe(200);
    expect(plain, plain.join("\n")).toHaveLength(2);

    const named = await statementsOf(
      async () =>
        (answer = await call(delegatedUser.GET, {
          apiKey,
          params: { id },
          headers: { "service-account-id": account.id },
        })),
    );
    expect(answer!.status).toBe(200);
    expect(named, named.join("\n")).toHaveLength(2);
    // Service-Account-Id naming an account of another platform: still one look-up, and 404.
    const other = await platformWithKey();
    const elsewhere = await statementsOf(
      async () =>
        (answer = await call(delegatedUser.GET, {
          apiKey,
          params: { id },
          headers: { "service-account-id": other.account.id },
        })),
    );
    expect(answer!.status).toBe(404);
    expect(
      elsewhere.filter((sql) => !sql.startsWith('INSERT INTO "AuditEvent"')),
      elsewhere.join("\n"),
    ).toHaveLength(1);

    // The time of use is written by one statement for every key used meanwhile.
    expect((await db().apiKey.findFirstOrThrow({ where: { accountId: account.id } })).lastUsedAt).toBeNull();
    const flushed = await statementsOf(flushKeyUses);
    expect(flushed).toHaveLength(1);
    expect((await db().apiKey.findFirstOrThrow({ where: { accountId: account.id } })).lastUsedAt).not.toBeNull();
  });

  it("a simple write sends 2: the key, then the row with its audit record and events in one statement, atomic without BEGIN and COMMIT", async () => {
    const { apiKey } = await platformWithKey();
    await create(apiKey, "warm-up");
    await flushKeyUses();
    let answer: Awaited<ReturnType<typeof create>> | undefined;
    const sent = await statementsOf(async () => (answer = await create(apiKey, "counted")));
    expect(answer!.status).toBe(201);
    expect(sent, sent.join("\n")).toHaveLength(2);
    expect(sent[1]).toMatch(/^WITH "d0" AS \(INSERT INTO "DelegatedUser"/);
    const user = answer!.body as { id: string };
    expect(await db().delegatedUser.count({ where: { id: user.id } })).toBe(1);
    expect(await db().auditEvent.count({ where: { targetId: user.id, action: "delegated_user.create" } })).toBe(1);
  });

  it("with endpoints listening it is still 2, and each listening endpoint gets its delivery in that statement; a duplicate is one 409 and nothing of it stays", async () => {
    const { apiKey, scope } = await platformWithKey();
    const [listening, deaf] = await withScope(scope, () =>
      Promise.all([
        createWebhookEndpoint({
          url: "https://hooks.example.com/a",
          events: ["delegated_user.created"],
          enabled: true,
        }),
        createWebhookEndpoint({ url: "https://hooks.example.com/b", events: ["transfer.created"], enabled: true }),
      ]),
    );
    await create(apiKey, "warm-up");
    await flushKeyUses();
    let answer: Awaited<ReturnType<typeof create>> | undefined;
    const sent = await statementsOf(async () => (answer = await create(apiKey, "heard")));
    expect(answer!.status).toBe(201);
    expect(sent, sent.join("\n")).toHaveLength(2);
    const user = answer!.body as { id: string };
    const deliveries = await db().webhookDelivery.findMany({ where: { eventType: "delegated_user.created" } });
    const heard = deliveries.filter((delivery) => (delivery.eventData as { id?: string }).id === user.id);
    expect(heard.map((delivery) => delivery.webhookEndpointId)).toEqual([listening!.id]);
    expect(heard[0]!.id).toMatch(/^evt_[a-z0-9]{1,64}$/);
    expect(heard[0]!.eventData).toMatchObject({ id: user.id, externalId: "heard", accountId: scope.accountId });
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: deaf!.id } })).toBe(0);

    const again = await create(apiKey, "heard");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "err_conflict" });
    expect(await db().delegatedUser.count({ where: { externalId: "heard" } })).toBe(1);
    const afterDuplicate = await db().webhookDelivery.count({ where: { webhookEndpointId: listening!.id } });
    expect(afterDuplicate).toBe(2);
  });
});
