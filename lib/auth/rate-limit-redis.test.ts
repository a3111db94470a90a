import { createClient } from "redis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { resetEnv } from "@/lib/env";
import { newId } from "@/lib/ids/generate";
import { takeRateLimitSlot, resetLocalCounts } from "@/lib/auth/rate-limit";
import { closeRedisClients } from "@/lib/auth/rate-limit-redis";
import { unsetEnvAfterEach } from "@/lib/testing/env";

// Redis on 127.0.0.1:6379 (.ci/run starts one). The process's own count is forgotten between
// requests (resetLocalCounts), as if each came to another instance: only the shared count can hold them.

const REDIS = "redis://127.0.0.1:6379";
const limit = { requests: 5, perSeconds: 60 };
/** Ten seconds into a minute, never the real one: the counters of one test run are its own (fresh key ids). */
const now = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

unsetEnvAfterEach("REDIS_URL");
afterEach(async () => {
  await closeRedisClients();
  vi.restoreAllMocks();
});

const useRedis = (url: string) => {
  process.env.REDIS_URL = url;
  resetEnv();
};

describe("rate limits counted in Redis (REDIS_URL)", () => {
  const reader = createClient({ url: REDIS });
  afterAll(() => reader.destroy());

  it("one count for every instance: request limit+1 of a window is refused, and the counter expires with its window", async () => {
    useRedis(REDIS);
    const keyId = newId("key");
    const outcomes = [];
    for (let i = 0; i < limit.requests + 2; i += 1) {
      resetLocalCounts();
      outcomes.push(await takeRateLimitSlot(keyId, limit, now));
    }
    expect(outcomes.map((outcome) => outcome.admitted)).toEqual([true, true, true, true, true, false, false]);
    expect(outcomes.map((outcome) => outcome.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(outcomes[0]!.resetSeconds).toBe(50);
    await reader.connect();
    const name = `rl:${keyId}:60:${now - 10_000}`;
    expect(await reader.get(name)).toBe("7");
    const ttl = await reader.pTTL(name);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(51_000);
  });

  it("Redis unreachable: each process counts alone (fail open for the shared count), logged once", async () => {
    useRedis("redis://127.0.0.1:1");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const keyId = newId("key");
    const outcomes = [];
    for (let i = 0; i < limit.requests + 1; i += 1) outcomes.push(await takeRateLimitSlot(keyId, limit, now));
    expect(outcomes.map((outcome) => outcome.admitted)).toEqual([true, true, true, true, true, false]);
    const lines = logged.mock.calls.filter(([line]) => String(line).startsWith("Rate limits: Redis unreachable"));
    expect(lines).toHaveLength(1);
  });
});
