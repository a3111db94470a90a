import { describe, expect, it } from "vitest";
import { GET as list } from "@/app/v1/api_keys/route";
import { createUsageCounter, flushKeyUsage } from "@/lib/api-keys/usage";
import { db } from "@/lib/db";
import { addKeyUsage } from "@/lib/api-keys/store";
import { newId } from "@/lib/ids/generate";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET } from "./route";

const usageOf = (key: string, options: Parameters<typeof call>[1]) => call(GET, { params: { key }, ...options });
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const zeros = { ok: 0, client_error: 0, rate_limited: 0, denied: 0 };

/** A key allowed from 10.0.0.0/8 only, and a way to read its flushed usage today. */
async function keyAndUsage() {
  const { account, session } = await signedInEmployee();
  const key = await apiKeyFor(account.id, { cidrAllowlist: ["10.0.0.0/8"] });
  const usedToday = async () => {
    const response = await usageOf(key.id, { session });
    expect(response.status).toBe(200);
    return response.body.days.at(-1)!;
  };
  return { account, session, key, usedToday };
}

describe("GET /v1/api_keys/{key}/usage", () => {
  it("200: today's requests by outcome once flushed: ok, 404 as client_error, 403 as denied", async () => {
    const { key, usedToday } = await keyAndUsage();
    expect((await call(list, { apiKey: key.secret, ip: "10.1.2.3" })).status).toBe(200);
    expect((await call(list, { apiKey: key.secret, ip: "10.1.2.3" })).status).toBe(200);
    expect((await usageOf(newId("key"), { apiKey: key.secret, ip: "10.1.2.3" })).status).toBe(404);
    // From an address its allowlist leaves out: refused, and counted against the key as denied.
    expect((await call(list, { apiKey: key.secret, ip: "192.0.2.1" })).status).toBe(403);
    // Counts reach the table in batches: before the flush, none shows.
    expect(await usedToday()).toEqual({ date: today(), ...zeros });
    await flushKeyUsage();
    expect(await usedToday()).toEqual({ date: today(), ok: 2, client_error: 1, rate_limited: 0, denied: 1 });
  });

  it("200: two flushes add up", async () => {
    const { key, usedToday } = await keyAndUsage();
    await call(list, { apiKey: key.secret, ip: "10.1.2.3" });
    await flushKeyUsage();
    await call(list, { apiKey: key.secret, ip: "10.1.2.3" });
    await call(list, { apiKey: key.secret, ip: "10.1.2.3" });
    await flushKeyUsage();
    await flushKeyUsage();
    expect(await usedToday()).toMatchObject({ ok: 3 });
  });

  it("200: processes flushing at once each add their own counts, exactly", async () => {
    const { key, usedToday } = await keyAndUsage();
    // Two in-memory counters stand for two processes; each flushes several times, both at once.
    const processes = [createUsageCounter(), createUsageCounter()];
    for (let round = 0; round < 5; round += 1) {
      processes.forEach((counter, index) => {
        for (let request = 0; request < 10 + index; request += 1) counter.count(key.id, 200);
        counter.count(key.id, 429);
        counter.count(key.id, 422);
      });
      await Promise.all(processes.map((counter) => counter.flush()));
    }
    expect(processes.map((counter) => counter.pending)).toEqual([0, 0]);
    expect(await usedToday()).toEqual({ date: today(), ok: 5 * 21, client_error: 10, rate_limited: 10, denied: 0 });
  });

  it("200: the last 30 UTC days, today included, oldest first, zeros filled", async () => {
    const { key, session } = await keyAndUsage();
    await addKeyUsage({ apiKeyId: key.id, day: daysAgo(30), outcome: "ok", count: 7 });
    await addKeyUsage({ apiKeyId: key.id, day: daysAgo(29), outcome: "denied", count: 2 });
    await addKeyUsage({ apiKeyId: key.id, day: daysAgo(3), outcome: "ok", count: 5 });
    await addKeyUsage({ apiKeyId: key.id, day: daysAgo(3), outcome: "rate_limited", count: 1 });
    const response = await usageOf(key.id, { session });
    expect(response.status).toBe(200);
    const { days } = response.body;
    expect(days.map((day) => day.date)).toEqual(Array.from({ length: 30 }, (_, index) => daysAgo(29 - index)));
    expect(days[0]).toEqual({ date: daysAgo(29), ...zeros, denied: 2 });
    expect(days[26]).toEqual({ date: daysAgo(3), ...zeros, ok: 5, rate_limited: 1 });
    const total = days.reduce((sum, day) => sum + day.ok + day.client_error + day.rate_limited + day.denied, 0);
    expect(total).toBe(8);
  });

  it("200 for a key with no use: thirty days of zeros", async () => {
    const { key, session } = await keyAndUsage();
    const response = await usageOf(key.id, { session });
    expect(response.body.days).toHaveLength(30);
    expect(response.body.days.every((day) => day.ok + day.client_error + day.rate_limited + day.denied === 0)).toBe(
      true,
    );
  });

  it("404 for another account's key, as for one that does not exist", async () => {
    const { session } = await keyAndUsage();
    const other = await keyAndUsage();
    await addKeyUsage({ apiKeyId: other.key.id, day: today(), outcome: "ok", count: 3 });
    expectError(await usageOf(other.key.id, { session }), 404, "err_not_found");
    expectError(await usageOf(newId("key"), { session }), 404, "err_not_found");
  });

  it("403 for a key without api_keys:read", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id, { permissions: ["transactions:read"] });
    const response = await usageOf(key.id, { apiKey: key.secret });
    expect(response.status).toBe(403);
    await flushKeyUsage();
    const row = await db().apiKeyUsageDay.findUnique({
      where: { apiKeyId_day_outcome: { apiKeyId: key.id, day: today(), outcome: "denied" } },
    });
    expect(row?.count).toBe(1);
  });
});
