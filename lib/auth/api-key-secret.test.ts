import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apiKeyChecksum, looksLikeApiKey, newApiKeySecret } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const MILLION = 1_000_000;

/** A million random base62 texts of `length` characters, drawn in batches (bias does not matter to these tests). */
function* millionTexts(length: number): Generator<string> {
  const batch = 10_000;
  for (let done = 0; done < MILLION; done += batch) {
    const bytes = randomBytes(batch * length);
    for (let i = 0; i < batch; i++) {
      let text = "";
      for (let j = i * length; j < (i + 1) * length; j++) text += BASE62[bytes[j]! % 62];
      yield text;
    }
  }
}

describe("the checksummed key format (GitHub's scheme)", () => {
  // Computed apart from this code, with Python's zlib.crc32 (IEEE) over the 30-character body, then
  // base62 (0-9A-Za-z), left-padded with "0" to 6 characters:
  //   python3 -c 'import zlib; print(zlib.crc32(b"aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW6"))'  -> 2158711310 = "2M5jQM"
  //   python3 -c 'import zlib; print(zlib.crc32(b"4kQ9sW2mX7bL1pR8tY3vN6cH0dJ5fG"))'  -> 41678485 = "02osTd"
  // The first body's "2M5jQM" is also what an independent GitHub-token validator's tests assert for
  // ghp_/gho_/ghu_/ghs_/ghr_ alike: the prefix is not part of what the CRC covers.
  it.each([
    ["aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW6", "svc_aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW62M5jQM"],
    ["4kQ9sW2mX7bL1pR8tY3vN6cH0dJ5fG", "svc_4kQ9sW2mX7bL1pR8tY3vN6cH0dJ5fG02osTd"],
    ["abcdefgh12345678903ZZZZZZZZZZZ", "svc_abcdefgh12345678903ZZZZZZZZZZZ0p5S0Y"],
    ["000000000000000000000000000000", "svc_0000000000000000000000000000002C8GjS"],
    ["zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "svc_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz4IlJEz"],
  ])("body %s makes the token %s", (body, token) => {
    expect(`svc_${body}${apiKeyChecksum(body)}`).toBe(token);
    expect(looksLikeApiKey(token)).toBe(true);
  });

  it("a new key is svc_ + 36 base62 characters, shown by its first 12, stored as its SHA-256", () => {
    const { secret, prefix, secretHash } = newApiKeySecret();
    expect(secret).toMatch(/^svc_[0-9A-Za-z]{36}$/);
    expect(prefix).toBe(secret.slice(0, 12));
    expect(secretHash).toBe(sha256(secret));
  });

  it("every character of the body is drawn evenly from all 62 (rejection sampling, no bias to the first 8)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      for (const char of newApiKeySecret().secret.slice(4, 34)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    // 600,000 characters: 9,677 expected each, a standard deviation of ~97. With `byte % 62` over
    // every byte the first 8 characters would come up 5/4 as often (~12,000) as the rest (~9,600).
    const [low, high] = [Math.min(...counts.values()), Math.max(...counts.values())];
    expect(low).toBeGreaterThan(9_100);
    expect(high).toBeLessThan(10_250);
  });
});

describe("a million tokens", () => {
  it("every generated key passes its checksum", () => {
    let failed = 0;
    for (let i = 0; i < MILLION; i++) if (!looksLikeApiKey(newApiKeySecret().secret)) failed += 1;
    expect(failed).toBe(0);
  });

  it("made-up tokens of the new shape (random body, random 6-character tail) pass only by the odds", () => {
    let [tried, passed] = [0, 0];
    for (const text of millionTexts(36)) {
      tried += 1;
      if (looksLikeApiKey(`svc_${text}`)) passed += 1;
    }
    expect(tried).toBe(MILLION);
    // A random tail equals the body's checksum with probability 1/62^6 (~1.8e-11): ~0.00002 expected
    // in a million. A handful would already be a broken check (one passing every token passes them all).
    expect(passed).toBeLessThanOrEqual(1);
  });

  it("a key with any one character mistyped is refused by its checksum (CRC32 catches every single-byte change)", () => {
    let [i, passed] = [0, 0];
    for (const body of millionTexts(30)) {
      const secret = `svc_${body}${apiKeyChecksum(body)}`;
      const at = 4 + (i % 36);
      const typo = BASE62[(BASE62.indexOf(secret[at]!) + 1 + (i % 61)) % 62]!;
      if (looksLikeApiKey(secret.slice(0, at) + typo + secret.slice(at + 1))) passed += 1;
      i += 1;
    }
    expect(i).toBe(MILLION);
    expect(passed).toBe(0);
  });
});

describe("shapes", () => {
  it("keys issued before the checksum (svc_ + 43 base64url characters) keep their shape's pass", () => {
    for (let i = 0; i < 1000; i++) expect(looksLikeApiKey(`svc_${randomBytes(32).toString("base64url")}`)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["the prefix alone", "svc_"],
    ["another prefix", `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`],
    ["one character short", "svc_aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW62M5jQ"],
    ["one character long", "svc_aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW62M5jQMx"],
    ["a checksum out of the alphabet", "svc_aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW62M5jQ-"],
    ["an old-length token with a character out of base64url", `svc_${"a".repeat(42)}!`],
    ["an old-length token one short", `svc_${"a".repeat(42)}`],
    ["a long token", `svc_${"a".repeat(96)}`],
    ["lower-case prefix variant", "SVC_aB7cD8eF9gH0jK1mN2pQ3rS4tU5vW62M5jQM"],
  ])("%s is not a key", (_, token) => {
    expect(looksLikeApiKey(token)).toBe(false);
  });
});
