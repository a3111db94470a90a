import ipaddr from "ipaddr.js";

export type IpRange = { text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** Canonical text of an address; IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes plain IPv4. Null if invalid. */
export function normalizeIp(text: string): string | null {
  const value = text.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(value)) return null;
  // ipaddr.isValid accepts "1" or "0x7f.1" style IPv4; only dotted-quad IPv4 is a real address here.
  if (!value.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(value)) return null;
  const parsed = ipaddr.process(value);
  return parsed.toString();
}

/** Parses a CIDR range strictly (host bits must be zero, prefix within the family's width). */
export function parseCidr(text: string): IpRange | { error: string } {
  const value = text.trim();
  if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(value)) return { error: "must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32" };
  let range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    range = ipaddr.parseCIDR(value);
  } catch {
    return { error: "must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32" };
  }
  const [address, bits] = range;
  if (address.kind() === "ipv4" && !ipaddr.IPv4.isValidFourPartDecimal(value.split("/")[0]!)) {
    return { error: "must use a dotted-quad IPv4 address" };
  }
  const network =
    address.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(value)
      : ipaddr.IPv6.networkAddressFromCIDR(value);
  if (network.toString() !== address.toString()) {
    return { error: `has host bits set; did you mean ${network.toString()}/${bits}?` };
  }
  return { text: `${address.toString()}/${bits}`, range };
}

/**
 * Whether an address falls in any range. IPv4-mapped IPv6 callers match IPv4 ranges, and IPv4
 * callers match ::ffff:0:0/96-style IPv6 ranges, so one network written either way works.
 */
export function ipInRanges(ip: string, ranges: string[]): boolean {
  const normalized = normalizeIp(ip);
  if (normalized === null) return false;
  const address = ipaddr.parse(normalized);
  const forms: (ipaddr.IPv4 | ipaddr.IPv6)[] =
    address.kind() === "ipv4" ? [address, (address as ipaddr.IPv4).toIPv4MappedAddress()] : [address];
  for (const text of ranges) {
    const parsed = parseCidr(text);
    if ("error" in parsed) continue;
    const [network, bits] = parsed.range;
    for (const form of forms) {
      if (form.kind() === network.kind() && form.match(network as never, bits)) return true;
    }
  }
  return false;
}
