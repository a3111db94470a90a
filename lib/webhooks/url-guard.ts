import {
  addressProblem as ipProblem,
  MAX_WEBHOOK_URL_LENGTH,
  webhookUrlProblem as urlProblem,
} from "@/lib/net/address-rules";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

export { MAX_WEBHOOK_URL_LENGTH };

// The SSRF guard for webhook URLs as written, with this server's settings: the service sends requests to
// addresses its tenants choose, so they must never reach the service's own network. Checked when an
// endpoint is created or changed; every delivery then goes through the outbound gate (lib/net/outbound.ts),
// which checks every address the host name resolves to right before the request, since DNS can change
// between the two (or answer differently each time).

/** Why `url` is not acceptable for a webhook endpoint under this server's settings, or null. */
export function webhookUrlProblem(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  return urlProblem(url, allowPrivate);
}

/** Why the service may not send a webhook to address `ip` under this server's settings, or null. */
export function addressProblem(ip: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): string | null {
  return ipProblem(ip, allowPrivate);
}

/** For create and update: 422 err_validation with details.url when the URL is not acceptable. */
export function checkWebhookUrl(url: string, allowPrivate = env().WEBHOOK_ALLOW_PRIVATE): void {
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new DomainError("invalid", `url: ${problem}`, { url: problem });
}
