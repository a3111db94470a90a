import { describe, expect, it } from "vitest";
import { shutdownSettings } from "@/lib/server-lifecycle.mjs";

describe("SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS", () => {
  it("default to 0 and 30 s", () => {
    expect(shutdownSettings({})).toEqual({ delayMs: 0, graceMs: 30_000 });
  });

  it("take whole milliseconds", () => {
    expect(shutdownSettings({ SHUTDOWN_DELAY_MS: "15000", SHUTDOWN_GRACE_MS: "0" })).toEqual({
      delayMs: 15_000,
      graceMs: 0,
    });
  });

  it.each(["-1", "1.5", "soon", "3600001"])("refuse %s, naming the variable", (value) => {
    expect(() => shutdownSettings({ SHUTDOWN_GRACE_MS: value })).toThrow(/^SHUTDOWN_GRACE_MS must be a whole number/);
  });
});
