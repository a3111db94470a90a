import { describe, expect, it } from "vitest";
import { daysLeft, expiringKeys } from "@/components/api-keys/expiring-keys-banner";
import type { ApiKey } from "@/components/api-keys/use-api-keys";

const now = Date.parse("2026-11-23T12:00:00.000Z");
const inDays = (days: number) => new Date(now + days * 86_400_000).toISOString();

function key(id: string, expiresAt: string, revokedAt: string | null = null): ApiKey {
  return { id, name: id, prefix: `pk_${id}`, expiresAt, revokedAt } as ApiKey;
}

describe("daysLeft", () => {
  it("rounds up to whole days, so a key with hours left has 1 day left", () => {
    expect(daysLeft(inDays(5), now)).toBe(5);
    expect(daysLeft(inDays(4.2), now)).toBe(5);
    expect(daysLeft(inDays(0.1), now)).toBe(1);
    expect(daysLeft(inDays(30), now)).toBe(30);
  });
});

describe("expiringKeys", () => {
  it("lists working keys that expire within 30 days, soonest first", () => {
    const keys = [
      key("later", inDays(29.5)),
      key("soon", inDays(5)),
      key("far", inDays(31)),
      key("today", inDays(0.25)),
    ];
    expect(expiringKeys(keys, now).map(({ key, days }) => [key.id, days])).toEqual([
      ["today", 1],
      ["soon", 5],
      ["later", 30],
    ]);
  });

  it("leaves out revoked keys and keys already expired", () => {
    const keys = [key("revoked", inDays(3), inDays(-1)), key("expired", inDays(-0.5)), key("working", inDays(7))];
    expect(expiringKeys(keys, now).map(({ key }) => key.id)).toEqual(["working"]);
  });
});
