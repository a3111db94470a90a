import { generate, generateSync } from "otplib";
import { describe, expect, it } from "vitest";
import { matchTotpStep, newTotpSecret, totpUri, TOTP_PERIOD } from "@/lib/auth/totp";

// Base32 of the ASCII secret "12345678901234567890" used by RFC 4226 Appendix D and RFC 6238 Appendix B (SHA-1).
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

// RFC 4226 Appendix D: HOTP values for counters 0..9.
const HOTP_VECTORS = [
  "755224",
  "287082",
  "359152",
  "969429",
  "338314",
  "254676",
  "287922",
  "162583",
  "399871",
  "520489",
];

// RFC 6238 Appendix B, SHA-1 column: Unix time in seconds → 8-digit TOTP.
const TOTP_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

/** The 6-digit code of the RFC secret at a given time step. */
const codeAtStep = (step: number) =>
  generate({ secret: RFC_SECRET, epoch: step * TOTP_PERIOD, period: TOTP_PERIOD, digits: 6, algorithm: "sha1" });

describe("otplib against RFC 6238 Appendix B", () => {
  it.each(TOTP_VECTORS)("at T=%i generates %s (async and sync)", async (seconds, expected) => {
    const options = { secret: RFC_SECRET, epoch: seconds, period: 30, digits: 8, algorithm: "sha1" } as const;
    expect(await generate(options)).toBe(expected);
    expect(generateSync(options)).toBe(expected);
  });
});

describe("matchTotpStep", () => {
  it.each(HOTP_VECTORS.map((code, counter) => [counter, code] as const))(
    "matches RFC 4226 counter %i (%s) as the time step equal to the counter",
    async (counter, code) => {
      expect(await matchTotpStep({ secret: RFC_SECRET, code, now: counter * 30 * 1000 + 1000 })).toBe(counter);
    },
  );

  it.each(TOTP_VECTORS)("matches the last six digits of the RFC 6238 vector at T=%i", async (seconds, expected) => {
    // 20000000000 s is step 666666666: past 32-bit seconds, but the step itself still fits in an Int column.
    const step = Math.floor(seconds / 30);
    expect(await matchTotpStep({ secret: RFC_SECRET, code: expected.slice(-6), now: seconds * 1000 })).toBe(step);
  });

  describe("clock drift", () => {
    const step = 50_000_000;
    const now = step * 30 * 1000 + 15_000; // mid-step

    it("accepts the current step and one step either side", async () => {
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step), now })).toBe(step);
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step - 1), now })).toBe(step - 1);
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step + 1), now })).toBe(step + 1);
    });

    it("refuses codes two steps away", async () => {
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step - 2), now })).toBeNull();
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step + 2), now })).toBeNull();
    });

    it("accepts a one-step drift at the very start and end of a step", async () => {
      const start = step * 30 * 1000;
      const end = start + 29_999;
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step - 1), now: start })).toBe(step - 1);
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step + 1), now: end })).toBe(step + 1);
    });
  });

  describe("replay (afterStep)", () => {
    const step = 50_000_000;
    const now = step * 30 * 1000 + 15_000;

    it("refuses a code whose step equals afterStep", async () => {
      expect(
        await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step), now, afterStep: step }),
      ).toBeNull();
    });

    it("refuses a code whose step is before afterStep", async () => {
      const code = await codeAtStep(step - 1);
      expect(await matchTotpStep({ secret: RFC_SECRET, code, now, afterStep: step })).toBeNull();
      expect(
        await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step), now, afterStep: step + 1 }),
      ).toBeNull();
    });

    it("accepts a code whose step is after afterStep", async () => {
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step), now, afterStep: step - 1 })).toBe(
        step,
      );
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step + 1), now, afterStep: step })).toBe(
        step + 1,
      );
    });

    it("treats a null afterStep as no previous step", async () => {
      expect(await matchTotpStep({ secret: RFC_SECRET, code: await codeAtStep(step), now, afterStep: null })).toBe(
        step,
      );
    });
  });

  it.each(["12345", "abcdef", "1234567", "", " 755224", "75522a"])(
    "returns null for the malformed code %j",
    async (code) => {
      await expect(matchTotpStep({ secret: RFC_SECRET, code, now: 1000 })).resolves.toBeNull();
    },
  );

  it("returns null for a wrong code", async () => {
    // 287082 is counter 1's code; at step 5 it is out of the ±1 window.
    expect(await matchTotpStep({ secret: RFC_SECRET, code: "287082", now: 5 * 30 * 1000 + 1000 })).toBeNull();
  });

  it("returns null rather than throwing for a secret that is not base32", async () => {
    await expect(matchTotpStep({ secret: "not base32!", code: "123456", now: 1000 })).resolves.toBeNull();
  });
});

describe("newTotpSecret", () => {
  it("is base32 of at least 160 bits", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(secret.replace(/=+$/, "").length).toBeGreaterThanOrEqual(32);
  });

  it("differs on each call", () => {
    const secrets = new Set(Array.from({ length: 20 }, () => newTotpSecret()));
    expect(secrets.size).toBe(20);
  });

  it("produces a secret matchTotpStep accepts codes for", async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const code = await generate({ secret, epoch: now / 1000, period: 30, digits: 6, algorithm: "sha1" });
    expect(await matchTotpStep({ secret, code, now })).toBe(Math.floor(now / 1000 / 30));
  });
});

describe("totpUri", () => {
  it("is an otpauth://totp URI carrying the issuer, secret and account", () => {
    const uri = totpUri({ secret: RFC_SECRET, issuer: "Platform Compliance", account: "a.b+c@example.com" });
    expect(uri.startsWith("otpauth://totp/")).toBe(true);
    const url = new URL(uri);
    expect(url.searchParams.get("issuer")).toBe("Platform Compliance");
    expect(url.searchParams.get("secret")).toBe(RFC_SECRET);
    expect(decodeURIComponent(url.pathname)).toBe("/Platform Compliance:a.b+c@example.com");
  });
});
