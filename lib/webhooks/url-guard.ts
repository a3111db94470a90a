import { lookup as dnsLookup } from "node:dns/promises";
import {
  addressProblem as ipProblem,
  inspect,
  MAX_WEBHOOK_URL_LENGTH,
  parseIp,
  webhookUrlProblem as urlProblem,
} from "@/lib/webhooks/url-rules";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

export { MAX_WEBHOOK_URL_LENGTH };

// The SSRF guard for webhook URLs (CONTRACT.md, "Webhooks"): the service sends requests to
// addresses its tenants choose, so they must never reach the service's own network. Checked on the
// URL as written when an endpoint is created or changed (checkWebhookUrl), and again on every
// address its host name resolves to right before each delivery (resolveDeliveryAddress), since DNS
// can change between the two (or answer differently each time).

/** Why `url` is not acceptable for a webhook endpoint under this server's settings, or null. */
export function webhookUrlProblem(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  return urlProblem(url, allowPrivate);
}

/** Why the service may not send to address `ip` under this server's settings, or null. */
export function addressProblem(ip: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  return ipProblem(ip, allowPrivate);
}

/** For create and update: 422 err_validation with details.url when the URL is not acceptable. */
export function checkWebhookUrl(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): void {
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new DomainError("invalid", `url: ${problem}`, { url: problem });
}

/**
 * A delivery refused by the guard. The worker records `message` as the attempt's error, which the
 * endpoint's tenant reads: it says what failed, never which address a name resolved to (that would
 * map the service's internal network for them). `detail`, with the address, is for the service's log.
 */
export class WebhookAddressError extends Error {
  override name = "WebhookAddressError";
  constructor(
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
  }
}

/** A system error code (ENOTFOUND, EAI_AGAIN): a fixed name that carries no address, unlike the error's message. */
export const errorCode = (error: unknown): string | null => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : null;
};

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for a delivery to `url`: the literal address, or the host name resolved
 * with every address it resolves to checked (one bad address refuses the delivery, so DNS cannot
 * slip a private address in beside a public one). Connect to exactly this address (sending the
 * original host name in Host and as TLS server name), so no second lookup can answer differently.
 * Throws WebhookAddressError when refused ("address not allowed: ...", "could not resolve ...").
 */
export async function resolveDeliveryAddress(
  url: string,
  {
    lookup = lookupAll,
    allowPrivate = env().WEBHOOK_ALLOW_PRIVATE,
  }: { lookup?: LookupAll; allowPrivate?: boolean } = {},
): Promise<{ address: string; family: 4 | 6; hostname: string }> {
  const parsed = inspect(url, allowPrivate);
  // The URL as the tenant wrote it (refused at creation too, unless the server's settings changed since).
  if ("problem" in parsed) throw new WebhookAddressError(`address not allowed: url ${parsed.problem}`);
  const { host, literal } = parsed;
  if (literal) return { address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6, hostname: host };
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host);
  } catch (error) {
    const code = errorCode(error);
    throw new WebhookAddressError(
      `could not resolve ${host}${code ? ` (${code})` : ""}`,
      `could not resolve ${host}: ${(error as Error).message}`,
    );
  }
  if (answers.length === 0) throw new WebhookAddressError(`could not resolve ${host} (no addresses)`);
  const addresses = answers.map((answer) => {
    const address = parseIp(answer.address);
    if (!address)
      throw new WebhookAddressError(
        `could not resolve ${host} (an answer is not an IP address)`,
        `${host} resolved to ${answer.address}, which is not an IP address`,
      );
    const problem = addressProblem(address.toString(), allowPrivate);
    if (problem) {
      throw new WebhookAddressError(
        `address not allowed: ${host} resolves to an address webhooks may not reach`,
        `${host} resolves to ${address.toString()}, which ${problem}`,
      );
    }
    if (parsed.url.protocol === "http:" && address.range() !== "loopback") {
      throw new WebhookAddressError(
        `address not allowed: ${host} resolves to an address that is not loopback; http is only for loopback`,
        `${host} resolves to ${address.toString()}, which is not loopback; http is only for loopback`,
      );
    }
    return address;
  });
  const chosen = addresses[0]!;
  return { address: chosen.toString(), family: chosen.kind() === "ipv4" ? 4 : 6, hostname: host };
}
