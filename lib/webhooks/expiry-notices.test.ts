import { beforeEach, describe, expect, it } from "vitest";
import { jsonObject } from "@/lib/db/json";
import { db } from "@/lib/db";
import { apiKeyFor, platformWithKey } from "@/lib/testing/factories";
import { withScope } from "@/lib/tenancy";
import { sendExpiryNotices } from "@/lib/webhooks/expiry-notices";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

const DAY = 86_400_000;

// The file's keys share one database: every test looks only at its own platform's deliveries.
async function platformListening() {
  const platform = await platformWithKey();
  // Its own key (30 days) would get a notice too: only the test's keys count.
  await db().apiKey.update({ where: { id: platform.key.id }, data: { revokedAt: new Date() } });
  const endpoint = await withScope(platform.scope, () =>
    createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks", events: ["api_key.expiring"], enabled: true }),
  );
  return { ...platform, endpoint };
}

const notices = (endpointId: string) =>
  db().webhookDelivery.findMany({
    where: { webhookEndpointId: endpointId, eventType: "api_key.expiring" },
    orderBy: { occurredAt: "asc" },
  });

beforeEach(async () => {
  // Keys of earlier tests are not this test's business.
  await db().apiKey.updateMany({ where: { revokedAt: null }, data: { revokedAt: new Date() } });
});

describe("api_key.expiring", () => {
  it("goes out 30, 7 and 1 days before a key expires, once each, with the key as the API shows it and daysLeft", async () => {
    const { account, endpoint } = await platformListening();
    const start = Date.now();
    const key = await apiKeyFor(account.id, {
      name: "billing sync",
      expiresAt: new Date(start + 40 * DAY).toISOString(),
    });
    const at = (ms: number) => new Date(start + ms);

    expect(await sendExpiryNotices({ now: at(0) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(10 * DAY - 1000) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(10 * DAY + 1000) })).toBe(1);
    expect(await sendExpiryNotices({ now: at(10 * DAY + 2000) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(20 * DAY) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(33 * DAY + 1000) })).toBe(1);
    expect(await sendExpiryNotices({ now: at(35 * DAY) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(39 * DAY + 1000) })).toBe(1);
    expect(await sendExpiryNotices({ now: at(39 * DAY + 60_000) })).toBe(0);
    expect(await sendExpiryNotices({ now: at(41 * DAY) })).toBe(0);

    const sent = await notices(endpoint.id);
    expect(sent).toHaveLength(3);
    const data = sent.map((row) => jsonObject(row.eventData));
    expect(data.map((item) => item.daysLeft)).toEqual([30, 7, 1]);
    const { secret: _secret, ...shown } = key;
    for (const item of data) {
      expect(item).toEqual({ ...JSON.parse(JSON.stringify(shown)), daysLeft: item.daysLeft, accountId: account.id });
      expect(JSON.stringify(item)).not.toContain(key.secret);
    }
    expect(sent.map((row) => row.occurredAt.getTime())).toEqual([
      start + 10 * DAY + 1000,
      start + 33 * DAY + 1000,
      start + 39 * DAY + 1000,
    ]);
  });

  it("for a key issued for less than 30 days, only the nearest notice (its real days left), and never for revoked or expired keys", async () => {
    const { account, endpoint } = await platformListening();
    const start = Date.now();
    await apiKeyFor(account.id, { expiresAt: new Date(start + 5 * DAY).toISOString() });
    const revoked = await apiKeyFor(account.id, { expiresAt: new Date(start + 5 * DAY).toISOString() });
    await db().apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date(start) } });

    expect(await sendExpiryNotices({ now: new Date(start) })).toBe(1);
    expect(await sendExpiryNotices({ now: new Date(start + DAY) })).toBe(0);
    const sent = await notices(endpoint.id);
    expect(sent.map((row) => jsonObject(row.eventData).daysLeft)).toEqual([5]);
    expect(await db().apiKeyExpiryNotice.findMany({ where: { apiKeyId: revoked.id } })).toEqual([]);
    expect(await sendExpiryNotices({ now: new Date(start + 6 * DAY) })).toBe(0);
  });

  it("two instances checking at once send each notice once", async () => {
    const { account, endpoint } = await platformListening();
    const start = Date.now();
    for (let i = 0; i < 5; i += 1)
      await apiKeyFor(account.id, { expiresAt: new Date(start + 20 * DAY + i).toISOString() });
    const counts = await Promise.all([
      sendExpiryNotices({ now: new Date(start) }),
      sendExpiryNotices({ now: new Date(start) }),
      sendExpiryNotices({ now: new Date(start) }),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(await notices(endpoint.id)).toHaveLength(5);
  });
});
