import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import {
  describeRateLimit,
  keyRateLimitResolver,
  rateLimitBody,
  rateLimitInput,
  rateLimitText,
  type KeyRateLimitFormValues,
} from "@/components/api-keys/rate-limit";

describe("describeRateLimit", () => {
  it("names the window in words where there is one, and counts in the singular for one", () => {
    expect(describeRateLimit({ requests: 100, perSeconds: 1 })).toBe("100 requests per second");
    expect(describeRateLimit({ requests: 1, perSeconds: 10 })).toBe("1 request per 10 seconds");
    expect(describeRateLimit({ requests: 5000, perSeconds: 3600 })).toBe("5,000 requests per hour");
    expect(describeRateLimit({ requests: 100000, perSeconds: 60 })).toBe("100,000 requests per minute");
  });
});

describe("rateLimitInput", () => {
  it("is null (the platform default) only when both boxes are blank", () => {
    expect(rateLimitInput({ requests: " ", perSeconds: "" })).toBeNull();
    expect(rateLimitInput({ requests: "7", perSeconds: "2" })).toEqual({ requests: 7, perSeconds: 2 });
    const half = rateLimitInput({ requests: "7", perSeconds: "" });
    expect(half?.requests).toBe(7);
    expect(half?.perSeconds).toBeNaN();
  });

  it("round-trips the boxes' text", () => {
    expect(rateLimitText({ requests: 20, perSeconds: 60 })).toEqual({ requests: "20", perSeconds: "60" });
    expect(rateLimitText(null)).toEqual({ requests: "", perSeconds: "" });
  });
});

describe("keyRateLimitResolver", () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<KeyRateLimitFormValues>;
  const own: KeyRateLimitFormValues = {
    choice: "own",
    rateLimit: { requests: "20", perSeconds: "60" },
    code: "123456",
  };

  it("sends null for the platform default, whatever the boxes hold", async () => {
    const values = { ...own, choice: "default" as const, rateLimit: { requests: "x", perSeconds: "" } };
    expect(rateLimitBody(values)).toEqual({ rateLimit: null });
    expect((await keyRateLimitResolver(values, undefined, options)).errors).toEqual({});
  });

  it("sends an own limit as numbers", async () => {
    expect(rateLimitBody(own)).toEqual({ rateLimit: { requests: 20, perSeconds: 60 } });
    expect((await keyRateLimitResolver(own, undefined, options)).errors).toEqual({});
  });

  it("refuses an own limit the API would refuse, under each box, and a blank one too", async () => {
    const { errors } = await keyRateLimitResolver(
      { ...own, rateLimit: { requests: "100001", perSeconds: "1.5" }, code: "" },
      undefined,
      options,
    );
    expect(errors.rateLimit?.requests?.message).toBe("must be at most 100000");
    expect(errors.rateLimit?.perSeconds?.message).toBe("must be a whole number of seconds (1..3600)");
    expect(errors.code?.message).toBe("must be the 6-digit code from your authenticator app");
    const blank = await keyRateLimitResolver(
      { ...own, rateLimit: { requests: "", perSeconds: "" } },
      undefined,
      options,
    );
    expect(blank.errors.rateLimit?.requests?.message).toBe("must be a whole number of requests (1..100000)");
  });
});
