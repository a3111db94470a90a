import { describe, expect, it } from "vitest";
import { takeSlot, throttleKey } from "@/lib/auth/throttle";
import { newId } from "@/lib/ids/generate";

describe("throttleKey", () => {
  // Counters live in the database: a renamed key would hand every blocked caller a fresh window on deploy.
  it("names a counter by its kind and its parts, joined by |", () => {
    expect(throttleKey("totp", "emp_1")).toBe("totp:emp_1");
    expect(throttleKey("signin:account-ip", "a@example.com", "203.0.113.7")).toBe(
      "signin:account-ip:a@example.com|203.0.113.7",
    );
    expect(throttleKey("signin:ip", "2001:db8:1:2::/64")).toBe("signin:ip:2001:db8:1:2::/64");
    expect(throttleKey("signin:account", "a@example.com")).toBe("signin:account:a@example.com");
    expect(throttleKey("password-change", "emp_1")).toBe("password-change:emp_1");
  });
});

describe("takeSlot: at most the limit in any span of the window", () => {
  const rule = { limit: 5, windowMs: 5 * 60_000 };
  const at = (start: number, ms: number) => new Date(start + ms);
  /** How many of `count` attempts at `now` are taken (the rest answer 429). */
  async function taken(key: ReturnType<typeof throttleKey>, count: number, now: Date) {
    let ok = 0;
    for (let i = 0; i < count; i++) {
      try {
        await takeSlot(key, rule, now);
        ok++;
      } catch (error) {
        expect(error).toMatchObject({ kind: "rate_limited" });
      }
    }
    return ok;
  }

  it("the limit at the end of one window and again just after its edge: only what the first 5 minutes freed", async () => {
    const key = throttleKey("totp", newId("emp"));
    const start = Date.UTC(2026, 10, 25, 12);
    expect(await taken(key, 1, at(start, 0))).toBe(1);
    expect(await taken(key, 10, at(start, 4 * 60_000 + 58_000))).toBe(4);
    // 5 min 1 s after the first: one window would be over, and five more would pass; here only the first's slot is free again.
    expect(await taken(key, 10, at(start, 5 * 60_000 + 1_000))).toBe(1);
    // The next four free up 5 minutes after they were taken.
    expect(await taken(key, 10, at(start, 9 * 60_000 + 57_000))).toBe(0);
    expect(await taken(key, 10, at(start, 9 * 60_000 + 59_000))).toBe(4);
  });

  it("a slot given back (a right code) is free at once, and its next use starts a 5 minutes of its own", async () => {
    const key = throttleKey("totp", newId("emp"));
    const start = Date.UTC(2026, 10, 25, 12);
    const first = await takeSlot(key, rule, at(start, 0));
    await first.refund();
    expect(await taken(key, 10, at(start, 4 * 60_000 + 59_000))).toBe(5);
    expect(await taken(key, 10, at(start, 5 * 60_000 + 1_000))).toBe(0);
  });

  it("many at once: exactly the limit are taken, the rest answer 429 with Retry-After", async () => {
    const key = throttleKey("totp", newId("emp"));
    const now = new Date();
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => takeSlot(key, rule, now)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    for (const { reason } of refused) expect(reason).toMatchObject({ kind: "rate_limited", retryAfter: 300 });
  });
});
