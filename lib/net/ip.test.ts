import { describe, expect, it } from "vitest";
import { ipInRanges, normalizeIp, parseCidr, throttleGroup } from "@/lib/net/ip";

describe("normalizeIp", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["::1", "::1"],
    ["::", "::"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["[::1]", "::1"],
    ["[127.0.0.1]", "127.0.0.1"],
    ["fe80::1%eth0", "fe80::1"],
    ["[fe80::1%eth0]", "fe80::1"],
  ])("normalises %j to %j", (input, expected) => {
    expect(normalizeIp(input)).toBe(expected);
  });

  it.each([
    "",
    "junk",
    "1",
    "0x7f.0.0.1",
    "127.1",
    "010.0.0.1",
    "256.0.0.1",
    "1.2.3.4.5",
    "1.2.3",
    "::ffff:1.2.3",
    "2001:db8::g",
  ])("rejects %j", (input) => {
    expect(normalizeIp(input)).toBeNull();
  });
});

describe("parseCidr", () => {
  const ok = (text: string) => {
    const parsed = parseCidr(text);
    if ("error" in parsed) throw new Error(`expected ${text} to parse, got: ${parsed.error}`);
    return parsed;
  };
  const error = (text: string) => {
    const parsed = parseCidr(text);
    if (!("error" in parsed)) throw new Error(`expected ${text} to be refused, got ${parsed.text}`);
    return parsed.error;
  };

  it.each([
    ["203.0.113.0/24", "203.0.113.0/24"],
    ["10.0.0.0/8", "10.0.0.0/8"],
    ["192.0.2.7/32", "192.0.2.7/32"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["::/0", "::/0"],
    ["2001:db8::/32", "2001:db8::/32"],
    ["2001:DB8::/32", "2001:db8::/32"],
    ["2001:0db8:0000::/48", "2001:db8::/48"],
    ["::1/128", "::1/128"],
    [" 10.0.0.0/8 ", "10.0.0.0/8"],
  ])("accepts %j as %j", (input, canonical) => {
    expect(ok(input).text).toBe(canonical);
  });

  it("returns the parsed range with the family and prefix length", () => {
    const [v4, v4Bits] = ok("10.0.0.0/8").range;
    expect(v4.kind()).toBe("ipv4");
    expect(v4Bits).toBe(8);
    const [v6, v6Bits] = ok("2001:db8::/32").range;
    expect(v6.kind()).toBe("ipv6");
    expect(v6Bits).toBe(32);
  });

  it("refuses host bits set and names the network meant", () => {
    expect(error("10.0.0.1/24")).toContain("10.0.0.0/24");
    expect(error("203.0.113.255/24")).toContain("203.0.113.0/24");
    expect(error("2001:db8::1/32")).toContain("2001:db8::/32");
    expect(error("1.2.3.4/0")).toContain("0.0.0.0/0");
  });

  it.each(["10.0.0.0/33", "::/129", "2001:db8::/200"])("refuses the too-long prefix %j", (input) => {
    expect(error(input)).toMatch(/CIDR/);
  });

  it.each([
    "",
    "garbage",
    "10.0.0.0",
    "10.0.0.0/",
    "/24",
    "10.0.0.0/-1",
    "10.0.0.0/8/8",
    "10.0.0.0 /8",
    "999.0.0.0/8",
    "0x0a.0.0.0/8",
  ])("refuses the malformed range %j", (input) => {
    expect(error(input)).toMatch(/CIDR/);
  });

  it.each(["10/8", "010.0.0.0/8"])("refuses the non-dotted-quad IPv4 range %j", (input) => {
    expect(error(input)).toMatch(/dotted-quad/);
  });
});

describe("ipInRanges", () => {
  // One row a case: [what it shows, address, ranges, whether the address is in them].
  it.each<[string, string, string[], boolean]>([
    ["IPv4 inside a range", "10.1.2.3", ["10.0.0.0/8"], true],
    ["IPv4 outside a range", "11.1.2.3", ["10.0.0.0/8"], false],
    ["IPv6 inside a range", "2001:db8:1::5", ["2001:db8::/32"], true],
    ["IPv6 outside a range", "2001:db9::5", ["2001:db8::/32"], false],
    ["bracketed upper-case IPv6", "[2001:DB8::5]", ["2001:db8::/32"], true],
    ["an IPv4-mapped caller, IPv4 range", "::ffff:10.1.2.3", ["10.0.0.0/8"], true],
    ["an IPv4-mapped caller outside an IPv4 range", "::ffff:11.1.2.3", ["10.0.0.0/8"], false],
    ["an IPv4 caller, IPv4-mapped range", "10.1.2.3", ["::ffff:10.0.0.0/104"], true],
    ["an IPv4 caller outside an IPv4-mapped range", "11.1.2.3", ["::ffff:10.0.0.0/104"], false],
    // 0.0.0.0/0 matches any IPv4 and IPv4-mapped address but no native IPv6 address.
    ["0.0.0.0/0, lowest IPv4", "0.0.0.0", ["0.0.0.0/0"], true],
    ["0.0.0.0/0, highest IPv4", "255.255.255.255", ["0.0.0.0/0"], true],
    ["0.0.0.0/0, IPv4-mapped", "::ffff:198.51.100.1", ["0.0.0.0/0"], true],
    ["0.0.0.0/0, native IPv6", "2001:db8::1", ["0.0.0.0/0"], false],
    ["0.0.0.0/0, IPv6 loopback", "::1", ["0.0.0.0/0"], false],
    // ::/0 means every IPv6 address, and no IPv4 caller.
    ["::/0, IPv6", "2001:db8::1", ["::/0"], true],
    ["::/0, IPv6 loopback", "::1", ["::/0"], true],
    ["::/0, IPv4", "198.51.100.1", ["::/0"], false],
    ["::/0, IPv4-mapped", "::ffff:198.51.100.1", ["::/0"], false],
  ])("%s: %s in %j is %s", (_case, ip, ranges, expected) => {
    expect(ipInRanges(ip, ranges)).toBe(expected);
  });

  it("treats an IPv4-mapped range as the IPv4 range it maps", () => {
    expect(parseCidr("::ffff:10.0.0.0/104")).toMatchObject({ text: "10.0.0.0/8" });
    expect(ipInRanges("10.1.2.3", ["::ffff:10.0.0.0/104"])).toBe(true);
    expect(ipInRanges("::ffff:10.1.2.3", ["::ffff:10.0.0.0/104"])).toBe(true);
    expect(parseCidr("::ffff:0:0/64")).toHaveProperty("error");
  });

  // Regressions: ipaddr.js alone read IPv4-compatible ::1.2.3.4 as mapped, and let octal or hex
  // IPv4 through inside IPv6 text.
  it("keeps IPv4-compatible IPv6 as IPv6 and refuses non-dotted-quad IPv4 inside IPv6", () => {
    expect(normalizeIp("::1.2.3.4")).toBe("::102:304");
    expect(ipInRanges("::1.2.3.4", ["1.2.3.0/24"])).toBe(false);
    expect(normalizeIp("::ffff:0x7f.0.0.1")).toBeNull();
    expect(normalizeIp("::ffff:010.0.0.1")).toBeNull();
    expect(parseCidr("::ffff:010.0.0.0/104")).toHaveProperty("error");
  });

  it("includes both ends of a /24 and nothing beyond them", () => {
    const range = ["203.0.113.0/24"];
    expect(ipInRanges("203.0.113.0", range)).toBe(true);
    expect(ipInRanges("203.0.113.255", range)).toBe(true);
    expect(ipInRanges("203.0.114.0", range)).toBe(false);
    expect(ipInRanges("203.0.112.255", range)).toBe(false);
  });

  it("matches when any of several ranges matches", () => {
    const ranges = ["10.0.0.0/8", "2001:db8::/32"];
    expect(ipInRanges("2001:db8::1", ranges)).toBe(true);
    expect(ipInRanges("10.0.0.1", ranges)).toBe(true);
    expect(ipInRanges("192.0.2.1", ranges)).toBe(false);
  });

  it("ignores invalid ranges in the list", () => {
    expect(ipInRanges("10.0.0.1", ["garbage", "10.0.0.1/8"])).toBe(false);
    expect(ipInRanges("10.0.0.1", ["garbage", "10.0.0.0/8"])).toBe(true);
  });

  it("is false for an empty list", () => {
    expect(ipInRanges("10.0.0.1", [])).toBe(false);
  });

  it.each(["", "junk", "1", "0x0a.0.0.1", "10.0.0.256"])("is false for the invalid address %j", (ip) => {
    expect(ipInRanges(ip, ["0.0.0.0/0", "::/0"])).toBe(false);
  });
});

describe("throttleGroup", () => {
  it("counts an IPv4 address alone, and IPv4-mapped IPv6 as its IPv4", () => {
    expect(throttleGroup("203.0.113.7")).toBe("203.0.113.7");
    expect(throttleGroup("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(throttleGroup("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(throttleGroup("203.0.113.8")).not.toBe(throttleGroup("203.0.113.7"));
  });

  it("counts IPv6 addresses per /64, however they are written", () => {
    const group = throttleGroup("2001:db8:1:2::1");
    expect(group).toBe("2001:db8:1:2::/64");
    expect(throttleGroup("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(group);
    expect(throttleGroup("2001:0DB8:0001:0002:abcd::9")).toBe(group);
    expect(throttleGroup("[2001:db8:1:2::42]")).toBe(group);
    expect(throttleGroup("2001:db8:1:3::1")).not.toBe(group);
    expect(throttleGroup("2001:db9:1:2::1")).not.toBe(group);
  });

  it("puts an unknown or invalid address in one shared group", () => {
    expect(throttleGroup(null)).toBe("unknown");
    expect(throttleGroup("junk")).toBe("unknown");
  });
});
