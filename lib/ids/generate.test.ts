import { describe, expect, it } from "vitest";
import { newId } from "@/lib/ids/generate";

describe("newId", () => {
  it("is the prefix and 20 base36 characters, never the same twice", () => {
    const ids = Array.from({ length: 20_000 }, () => newId("du"));
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^du_[0-9a-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws every character equally often (no modulo bias towards 0-3)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 18_000; i++)
      for (const char of newId("aud").slice(4)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 360,000 characters: 10,000 each expected, a standard deviation of about 100. Taking byte % 36
    // of all 256 byte values would give 0-3 about 11,250 each and the rest about 9,860.
    expect(counts.size).toBe(36);
    for (const [char, count] of counts) expect(Math.abs(count - 10_000), `${char}: ${count}`).toBeLessThan(600);
  });
});
