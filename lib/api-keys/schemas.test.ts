import { describe, expect, it } from "vitest";
import { expiryProblem, issueApiKeyInput, latestExpiry, MAX_ALLOWLIST_ENTRIES } from "@/lib/api-keys/schemas";

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe("latestExpiry", () => {
  it("is the same instant one calendar year later", () => {
    expect(latestExpiry(new Date("2026-11-22T10:15:30.123Z")).toISOString()).toBe("2027-11-22T10:15:30.123Z");
  });

  it("does not modify its argument", () => {
    const now = new Date("2026-11-22T10:15:30.123Z");
    latestExpiry(now);
    expect(now.toISOString()).toBe("2026-11-22T10:15:30.123Z");
  });

  it("rolls 29 February over to 1 March of the next (non-leap) year, keeping the time", () => {
    const limit = latestExpiry(new Date("2028-02-29T12:00:00Z"));
    expect(Number.isNaN(limit.getTime())).toBe(false);
    expect(limit.toISOString()).toBe("2029-03-01T12:00:00.000Z");
  });

  it("is 366 days ahead across a leap day and 365 days otherwise", () => {
    const acrossLeapDay = new Date("2027-06-01T00:00:00Z");
    expect(latestExpiry(acrossLeapDay).getTime() - acrossLeapDay.getTime()).toBe(366 * DAY);
    const ordinary = new Date("2029-06-01T00:00:00Z");
    expect(latestExpiry(ordinary).getTime() - ordinary.getTime()).toBe(365 * DAY);
  });
});

describe("expiryProblem", () => {
  const now = new Date("2026-11-22T10:00:00.000Z");
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  const limit = latestExpiry(now).getTime() - now.getTime();

  it("refuses an expiry equal to now", () => {
    expect(expiryProblem(at(0), now)).toBe("must be in the future");
  });

  it("refuses an expiry a millisecond in the past", () => {
    expect(expiryProblem(at(-1), now)).toBe("must be in the future");
  });

  it("accepts an expiry a millisecond in the future", () => {
    expect(expiryProblem(at(1), now)).toBeNull();
  });

  it("accepts exactly the latest expiry", () => {
    expect(expiryProblem(latestExpiry(now), now)).toBeNull();
  });

  it("refuses a millisecond past the latest expiry", () => {
    expect(expiryProblem(at(limit + 1), now)).toBe("must be at most one year from now");
  });

  it("uses the calendar year on 29 February", () => {
    const leapDay = new Date("2028-02-29T12:00:00Z");
    expect(expiryProblem(new Date("2029-03-01T12:00:00Z"), leapDay)).toBeNull();
    expect(expiryProblem(new Date("2029-03-01T12:00:00.001Z"), leapDay)).toBe("must be at most one year from now");
  });
});

describe("issueApiKeyInput", () => {
  const issuesOf = (input: unknown) => {
    const result = issueApiKeyInput.safeParse(input);
    if (result.success) throw new Error("expected the input to be refused");
    return result.error.issues;
  };

  it("accepts a valid request and leaves optional fields absent", () => {
    const expiresAt = inDays(30);
    const result = issueApiKeyInput.safeParse({ expiresAt });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ expiresAt });
  });

  it("trims the name and refuses an empty one", () => {
    expect(issueApiKeyInput.parse({ expiresAt: inDays(1), name: "  ci  " }).name).toBe("ci");
    expect(issuesOf({ expiresAt: inDays(1), name: "   " }).map((issue) => issue.path)).toEqual([["name"]]);
  });

  it("refuses a missing expiresAt", () => {
    expect(issuesOf({}).map((issue) => issue.path)).toEqual([["expiresAt"]]);
  });

  it.each(["2027-01-31", "tomorrow", "31/01/2027 12:00", "2027-01-31 12:00:00"])(
    "refuses the non-ISO expiresAt %j",
    (expiresAt) => {
      const issues = issuesOf({ expiresAt });
      expect(issues.map((issue) => issue.path)).toEqual([["expiresAt"]]);
      expect(issues[0]!.message).toMatch(/ISO-8601/);
    },
  );

  it("accepts an ISO date-time with an offset", () => {
    const soon = new Date(Date.now() + 2 * DAY);
    const withOffset = soon.toISOString().replace("Z", "+00:00");
    expect(issueApiKeyInput.safeParse({ expiresAt: withOffset }).success).toBe(true);
  });

  it("refuses an expiresAt in the past", () => {
    const issues = issuesOf({ expiresAt: inDays(-1) });
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([[["expiresAt"], "must be in the future"]]);
  });

  it("refuses an expiresAt more than a year away", () => {
    const issues = issuesOf({ expiresAt: inDays(370) });
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["expiresAt"], "must be at most one year from now"],
    ]);
  });

  it("names the index of a bad allowlist entry", () => {
    const issues = issuesOf({ expiresAt: inDays(1), cidrAllowlist: ["10.0.0.0/8", "10.0.0.1/8", "2001:db8::/32"] });
    expect(issues.map((issue) => issue.path)).toEqual([["cidrAllowlist", 1]]);
    expect(issues[0]!.message).toContain("10.0.0.0/8");
  });

  it("names every bad allowlist entry", () => {
    const issues = issuesOf({ expiresAt: inDays(1), cidrAllowlist: ["nope", "10.0.0.0/8", "::/200"] });
    expect(issues.map((issue) => issue.path)).toEqual([
      ["cidrAllowlist", 0],
      ["cidrAllowlist", 2],
    ]);
  });

  it("canonicalises and de-duplicates the allowlist, keeping first-seen order", () => {
    const parsed = issueApiKeyInput.parse({
      expiresAt: inDays(1),
      cidrAllowlist: ["2001:DB8::/32", "10.0.0.0/8", "2001:db8:0::/32", " 10.0.0.0/8 ", "192.0.2.0/24"],
    });
    expect(parsed.cidrAllowlist).toEqual(["2001:db8::/32", "10.0.0.0/8", "192.0.2.0/24"]);
  });

  it("accepts an empty allowlist", () => {
    expect(issueApiKeyInput.parse({ expiresAt: inDays(1), cidrAllowlist: [] }).cidrAllowlist).toEqual([]);
  });

  it(`refuses more than ${MAX_ALLOWLIST_ENTRIES} allowlist entries`, () => {
    const ranges = Array.from({ length: MAX_ALLOWLIST_ENTRIES + 1 }, (_, i) => `10.0.${i}.0/24`);
    expect(issuesOf({ expiresAt: inDays(1), cidrAllowlist: ranges }).map((issue) => issue.path)).toEqual([
      ["cidrAllowlist"],
    ]);
    expect(issueApiKeyInput.safeParse({ expiresAt: inDays(1), cidrAllowlist: ranges.slice(1) }).success).toBe(true);
  });
});
