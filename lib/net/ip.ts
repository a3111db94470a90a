import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type IpRange = { text: string; range: [Address, number] };

const cidrHint = "must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32";

/** Dotted-quad IPv4 only: four decimal numbers 0-255 without leading zeros (no "0x7f.1" or octal forms). */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Parses an address strictly and returns it with IPv4-mapped IPv6 (::ffff:1.2.3.4) reduced to IPv4,
 * the form callers arrive in over a dual-stack socket. Embedded dotted quads are rewritten to hex
 * first because ipaddr.js reads any IPv6 text with a dotted tail as IPv4-mapped, which would turn
 * ::1.2.3.4 into 1.2.3.4. Pure JavaScript, so the dashboard validates ranges with the same code.
 */
function parseAddress(text: string): Address | null {
  const value = text
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (IPV4.test(value)) return ipaddr.IPv4.parse(value);
  if (!value.includes(":")) return null;
  const tail = /:([^:]*\.[^:]*)$/.exec(value)?.[1];
  if (tail !== undefined && !IPV4.test(tail)) return null;
  let hex = value;
  if (tail !== undefined) {
    const [a, b, c, d] = ipaddr.IPv4.parse(tail).octets as [number, number, number, number];
    hex = `${value.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!ipaddr.IPv6.isValid(hex) || /[^0-9a-fA-F:]/.test(hex)) return null;
  const address = ipaddr.IPv6.parse(hex);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** Canonical text of an address; IPv4-mapped IPv6 becomes plain IPv4. Null if invalid. */
export function normalizeIp(text: string): string | null {
  // Called for every request's client address: the same few addresses are parsed once.
  let normal = normalized.get(text);
  if (normal === undefined) {
    normal = parseAddress(text)?.toString() ?? null;
    if (normalized.size >= 1000) normalized.clear();
    normalized.set(text, normal);
  }
  return normal;
}

const normalized = new Map<string, string | null>();

/**
 * Parses a CIDR range strictly (host bits must be zero, prefix within the family's width). A range
 * inside ::ffff:0:0/96 is the IPv4 range it maps, so ::ffff:10.0.0.0/104 and 10.0.0.0/8 are one.
 */
export function parseCidr(text: string): IpRange | { error: string } {
  const match = /^\s*([0-9a-fA-F:.]+)\/(\d{1,3})\s*$/.exec(text);
  if (!match) return { error: cidrHint };
  const [, addressText, bitsText] = match;
  const raw = parseAddress(addressText!);
  if (!raw)
    return {
      error: /^[\d.]+$/.test(addressText!)
        ? "must be a CIDR range with a dotted-quad IPv4 address (four numbers 0-255, no leading zeros)"
        : cidrHint,
    };
  let bits = Number(bitsText);
  // parseAddress reduces a mapped address to IPv4; its prefix shrinks by the 96 bits of the mapping.
  const mapped = addressText!.includes(":") && raw.kind() === "ipv4";
  if (mapped) {
    if (bits < 96)
      return { error: "is an IPv4-mapped range shorter than /96; write the IPv6 range without the mapping" };
    bits -= 96;
  }
  const width = raw.kind() === "ipv4" ? 32 : 128;
  if (bits > width) return { error: `is not a CIDR range: the prefix is longer than /${width}` };
  const family = raw.kind() === "ipv4" ? ipaddr.IPv4 : ipaddr.IPv6;
  const network = family.networkAddressFromCIDR(`${raw.toString()}/${bits}`);
  if (network.toString() !== raw.toString()) {
    return { error: `has host bits set; did you mean ${network.toString()}/${bits}?` };
  }
  return { text: `${raw.toString()}/${bits}`, range: [raw, bits] };
}

/** Whether an address falls in any range. Only same-family comparisons: ::/0 means every IPv6 address, not every address. */
export function ipInRanges(ip: string, ranges: readonly string[]): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  return ranges.some((text) => {
    const parsed = parseCidr(text);
    if ("error" in parsed) return false;
    const [network, bits] = parsed.range;
    if (address instanceof ipaddr.IPv4) return network instanceof ipaddr.IPv4 && address.match(network, bits);
    return network instanceof ipaddr.IPv6 && address.match(network, bits);
  });
}

/**
 * The group an address is counted in by the sign-in throttle: an IPv4 address alone (IPv4-mapped
 * IPv6 counts as its IPv4), an IPv6 address by its /64, since one subscriber commonly holds a whole
 * /64 and could otherwise take a fresh address for every guess. An unknown or unparseable address
 * is one shared group: it fails closed rather than going uncounted.
 */
export function throttleGroup(ip: string | null): string {
  const address = ip === null ? null : parseAddress(ip);
  if (!address) return "unknown";
  if (address.kind() === "ipv4") return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}
