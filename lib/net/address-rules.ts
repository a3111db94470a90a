import ipaddr from "ipaddr.js";

// The one address policy for every request the service sends to a URL a user supplied (webhooks, single
// sign-on): the rules a URL must follow as written, and the addresses that may be reached, with no server
// settings or network access, so the dashboard's forms run the API's own schema (lib/webhooks/schemas.ts).
// lib/net/outbound.ts applies them with the server's settings to every address a host name resolves
// to, right before each request.

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Cloud instance metadata services (AWS, GCP, Azure, ...): refused even with WEBHOOK_ALLOW_PRIVATE. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254"]);

/**
 * Never a destination for one request to one receiver, whatever the settings. IPv4-compatible IPv6
 * (::/96, deprecated by RFC 4291) has no use but to smuggle an IPv4 address past a check that
 * reads it as IPv6: a host or tunnel that still maps it reaches 127.0.0.1 through [::127.0.0.1].
 */
const NEVER = new Set(["unspecified", "multicast", "broadcast", "ipv4Compatible"]);

const RANGE_NAMES: Record<string, string> = {
  private: "private",
  loopback: "loopback",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  uniqueLocal: "unique local (fc00::/7)",
  reserved: "reserved",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "broadcast",
  ipv4Compatible: "IPv4-compatible IPv6 (::/96)",
  rfc6052: "NAT64 (64:ff9b::/96)",
  rfc6145: "IPv4-translated IPv6 (::ffff:0:0:0/96)",
  "6to4": "6to4 (2002::/16)",
  teredo: "Teredo (2001::/32)",
  notGlobalUnicast: "non-global IPv6 (outside 2000::/3)",
};

/** Global unicast IPv6 (RFC 4291, IANA): everything outside it is reserved, special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");

/**
 * The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address leads to: a gateway on the
 * way turns it into that IPv4 address, so the metadata service stays refused in these spellings
 * too, even where WEBHOOK_ALLOW_PRIVATE lets the ranges themselves through.
 */
function embeddedIpv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== "ipv6") return null;
  const parts = (address as ipaddr.IPv6).parts;
  const range = address.range();
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === "rfc6052") return fromParts(parts[6]!, parts[7]!);
  if (range === "6to4") return fromParts(parts[1]!, parts[2]!);
  return null;
}

/** ipaddr.js's range name, with what it calls plain "unicast" IPv6 split into ::/96, outside 2000::/3, and the rest. */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  if (range !== "unicast" || address.kind() !== "ipv6") return range;
  const v6 = address as ipaddr.IPv6;
  if (v6.match(IPV4_COMPATIBLE)) return "ipv4Compatible";
  if (!v6.match(GLOBAL_UNICAST_V6)) return "notGlobalUnicast";
  return range;
}

/** The address parsed, IPv4-mapped IPv6 reduced to IPv4; null when `text` is not an IP address. */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const value = text.replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(value)) return null;
  if (!value.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(value)) return null;
  return ipaddr.process(value);
}

/**
 * What a caller may reach beyond public addresses: `allowPrivate` opens every private and local range
 * (WEBHOOK_ALLOW_PRIVATE), `allowLoopback` loopback alone (SSO_ALLOW_INSECURE_ISSUER, for a provider on
 * this machine). `label` names who the rules are for in messages ("webhooks").
 */
export type AddressAllowance = { allowLoopback?: boolean; label?: string };

/** Why a request may not be sent to this address, or null. Only plain public unicast addresses pass, unless private ones are allowed. */
export function addressProblem(
  ip: string,
  allowPrivate: boolean,
  { allowLoopback = allowPrivate, label = "webhooks" }: AddressAllowance = {},
): string | null {
  const address = parseIp(ip);
  if (!address) return "is not an IP address";
  const embedded = embeddedIpv4(address);
  if (METADATA_ADDRESSES.has(address.toString()) || (embedded && METADATA_ADDRESSES.has(embedded.toString())))
    return "is a cloud metadata address";
  const range = rangeOf(address);
  if (range === "unicast") return null;
  if (NEVER.has(range)) return `is a ${RANGE_NAMES[range]} address`;
  if (allowPrivate || (allowLoopback && range === "loopback")) return null;
  // Anything else (NAT64, 6to4 and Teredo embed IPv4 addresses that may be private) is not public either.
  return `is a ${RANGE_NAMES[range] ?? `non-public (${range})`} address; ${label} go to public addresses only`;
}

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or either mapped). */
export const isLoopback = (address: ipaddr.IPv4 | ipaddr.IPv6) => rangeOf(address) === "loopback";

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

export type Parsed = { url: URL; host: string; literal: ipaddr.IPv4 | ipaddr.IPv6 | null };

/** Why `text` is not an acceptable URL to send to as written, or null (with the parsed parts). */
export function inspect(
  text: string,
  allowPrivate: boolean,
  allowance: AddressAllowance = {},
): { problem: string } | Parsed {
  const { allowLoopback = allowPrivate, label = "webhooks" } = allowance;
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !url.hostname) return { problem: "must be an absolute URL such as https://example.com/webhooks" };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { problem: "must use https" };
  if (url.username || url.password) return { problem: "must not contain a user name or password" };
  // The WHATWG parser has already rewritten IPv4 in any spelling (0x7f.1, 2130706433) as a dotted quad.
  const host = url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase()
    .replace(/\.$/, "");
  const literal = parseIp(host);
  const loopback = literal ? rangeOf(literal) === "loopback" : isLocalhostName(host);
  if (url.protocol === "http:") {
    if (!allowLoopback) return { problem: "must use https" };
    if (!loopback) return { problem: "may use http only to a loopback address (127.0.0.1, ::1, localhost); use https" };
  }
  if (literal) {
    const problem = addressProblem(literal.toString(), allowPrivate, { allowLoopback, label });
    if (problem) return { problem: `host ${literal.toString()} ${problem}` };
  } else if (loopback && !allowLoopback) {
    return { problem: `host localhost is this machine; ${label} go to public addresses only` };
  }
  return { url, host, literal };
}

/**
 * Why `url` is not acceptable for a webhook endpoint, or null. The schemas check with
 * `allowPrivate: true` (what no setting permits); the server then applies its own setting.
 */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | null {
  const result = inspect(url, allowPrivate);
  return "problem" in result ? result.problem : null;
}
