import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

// The SSRF guard for webhook URLs (CONTRACT.md, "Webhooks"): the service sends requests to
// addresses its tenants choose, so they must never reach the service's own network. Checked on the
// URL as written when an endpoint is created or changed (checkWebhookUrl), and again on every
// address its host name resolves to right before each delivery (resolveDeliveryAddress), since DNS
// can change between the two (or answer differently each time).

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Cloud instance metadata services (AWS, GCP, Azure, ...): refused even with WEBHOOK_ALLOW_PRIVATE. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254"]);

/** Never a destination for one request to one receiver, whatever the settings. */
const NEVER = new Set(["unspecified", "multicast", "broadcast"]);

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
};

/** The address parsed, IPv4-mapped IPv6 reduced to IPv4; null when `text` is not an IP address. */
function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const value = text.replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(value)) return null;
  if (!value.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(value)) return null;
  return ipaddr.process(value);
}

/** Why a webhook may not be sent to this address, or null. Only plain public unicast addresses pass, unless private ones are allowed. */
export function addressProblem(ip: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  const address = parseIp(ip);
  if (!address) return "is not an IP address";
  if (METADATA_ADDRESSES.has(address.toString())) return "is a cloud metadata address";
  const range = address.range();
  if (range === "unicast") return null;
  if (NEVER.has(range)) return `is a ${RANGE_NAMES[range]} address`;
  if (allowPrivate) return null;
  // Anything else (NAT64, 6to4 and Teredo embed IPv4 addresses that may be private) is not public either.
  return `is a ${RANGE_NAMES[range] ?? `non-public (${range})`} address; webhooks go to public addresses only`;
}

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

type Parsed = { url: URL; host: string; literal: ipaddr.IPv4 | ipaddr.IPv6 | null };

/** Why `text` is not an acceptable webhook URL as written, or null (with the parsed parts). */
function inspect(text: string, allowPrivate: boolean): { problem: string } | Parsed {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !url.hostname) return { problem: "must be an absolute URL such as https://example.com/webhooks" };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { problem: "must use https" };
  if (url.username || url.password) return { problem: "must not contain a user name or password" };
  // The WHATWG parser has already rewritten IPv4 in any spelling (0x7f.1, 2130706433) as a dotted quad.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase().replace(/\.$/, "");
  const literal = parseIp(host);
  const loopback = literal ? literal.range() === "loopback" : isLocalhostName(host);
  if (url.protocol === "http:") {
    if (!allowPrivate) return { problem: "must use https" };
    if (!loopback) return { problem: "may use http only to a loopback address (127.0.0.1, ::1, localhost); use https" };
  }
  if (literal) {
    const problem = addressProblem(literal.toString(), allowPrivate);
    if (problem) return { problem: `host ${literal.toString()} ${problem}` };
  } else if (loopback && !allowPrivate) {
    return { problem: "host localhost is this machine; webhooks go to public addresses only" };
  }
  return { url, host, literal };
}

/** Why `url` is not acceptable for a webhook endpoint, or null. */
export function webhookUrlProblem(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  const result = inspect(url, allowPrivate);
  return "problem" in result ? result.problem : null;
}

/** For create and update: 422 err_validation with details.url when the URL is not acceptable. */
export function checkWebhookUrl(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): void {
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new ApiError("err_validation", `url: ${problem}`, { url: problem });
}

/** A delivery refused by the guard: the worker records the message as the attempt's error. */
export class WebhookAddressError extends Error {
  override name = "WebhookAddressError";
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for a delivery to `url`: the literal address, or the host name resolved
 * with every address it resolves to checked (one bad address refuses the delivery, so DNS cannot
 * slip a private address in beside a public one). Connect to exactly this address (sending the
 * original host name in Host and as TLS server name), so no second lookup can answer differently.
 * Throws WebhookAddressError when refused.
 */
export async function resolveDeliveryAddress(
  url: string,
  { lookup = lookupAll, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE }: { lookup?: LookupAll; allowPrivate?: boolean } = {},
): Promise<{ address: string; family: 4 | 6; hostname: string }> {
  const parsed = inspect(url, allowPrivate);
  if ("problem" in parsed) throw new WebhookAddressError(`url ${parsed.problem}`);
  const { host, literal } = parsed;
  if (literal) return { address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6, hostname: host };
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host);
  } catch (error) {
    throw new WebhookAddressError(`could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (answers.length === 0) throw new WebhookAddressError(`could not resolve ${host}: no addresses`);
  const addresses = answers.map((answer) => {
    const address = parseIp(answer.address);
    if (!address) throw new WebhookAddressError(`${host} resolved to ${answer.address}, which is not an IP address`);
    const problem = addressProblem(address.toString(), allowPrivate);
    if (problem) throw new WebhookAddressError(`${host} resolves to ${address.toString()}, which ${problem}`);
    if (parsed.url.protocol === "http:" && address.range() !== "loopback") {
      throw new WebhookAddressError(`${host} resolves to ${address.toString()}, which is not loopback; http is only for loopback`);
    }
    return address;
  });
  const chosen = addresses[0]!;
  return { address: chosen.toString(), family: chosen.kind() === "ipv4" ? 4 : 6, hostname: host };
}
