import { describe, expect, it } from "vitest";
import { createUsageCounter, outcomeOf } from "@/lib/api-keys/usage";
import { cleanUserAgent, MAX_USER_AGENT_LENGTH } from "@/lib/api-keys/last-use";

describe("outcomeOf", () => {
  it("2xx and 3xx ok, 401 and 403 denied, 429 rate_limited, other 4xx client_error, 5xx not counted", () => {
    expect([200, 201, 204, 304].map(outcomeOf)).toEqual(["ok", "ok", "ok", "ok"]);
    expect([401, 403].map(outcomeOf)).toEqual(["denied", "denied"]);
    expect(outcomeOf(429)).toBe("rate_limited");
    expect([400, 404, 409, 413, 422].map(outcomeOf)).toEqual(Array(5).fill("client_error"));
    expect([500, 503].map(outcomeOf)).toEqual([null, null]);
  });
});

describe("cleanUserAgent", () => {
  it("drops control characters, trims, keeps at most 256 characters, and makes nothing null", () => {
    expect(cleanUserAgent("curl/8.5.0")).toBe("curl/8.5.0");
    expect(cleanUserAgent(" a\u0000b\u001bc\u007fd\u0085 ")).toBe("abcd");
    expect(cleanUserAgent("x".repeat(1000))).toHaveLength(MAX_USER_AGENT_LENGTH);
    // Cut by character, never inside a surrogate pair.
    expect(cleanUserAgent("😀".repeat(300))).toBe("😀".repeat(MAX_USER_AGENT_LENGTH));
    expect(cleanUserAgent("\u0001\u0002")).toBeNull();
    expect(cleanUserAgent("")).toBeNull();
    expect(cleanUserAgent(null)).toBeNull();
  });
});

describe("createUsageCounter", () => {
  type Row = { apiKeyId: string; day: string; outcome: string; count: number };
  it("counts per key, UTC day and outcome, and keeps what a failed flush did not add for the next one", async () => {
    const added: Row[] = [];
    let failAt = 1;
    const counter = createUsageCounter({
      add: async (row) => {
        if (added.length === failAt) throw new Error("database unavailable");
        added.push(row);
      },
    });
    const day = Date.parse("2026-11-26T23:59:59.999Z");
    counter.count("key_a", 200, day);
    counter.count("key_a", 201, day);
    counter.count("key_a", 404, day);
    counter.count("key_a", 200, day + 1);
    counter.count("key_b", 500, day);
    expect(counter.pending).toBe(3);
    await expect(counter.flush()).rejects.toThrow("database unavailable");
    expect(added).toEqual([{ apiKeyId: "key_a", day: "2026-11-26", outcome: "ok", count: 2 }]);
    // Counted meanwhile: added to what the failed flush gave back.
    counter.count("key_a", 404, day);
    failAt = Infinity;
    await counter.flush();
    expect(counter.pending).toBe(0);
    expect(added.slice(1)).toEqual([
      { apiKeyId: "key_a", day: "2026-11-26", outcome: "client_error", count: 2 },
      { apiKeyId: "key_a", day: "2026-11-27", outcome: "ok", count: 1 },
    ]);
  });
});
