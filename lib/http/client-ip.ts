import { env } from "@/lib/env";
import { normalizeIp } from "@/lib/net/ip";

/** Set by server.mjs: it appends the TCP peer to X-Forwarded-For on every request it serves. */
export const PEER_MARK = Symbol.for("platform-compliance.peer-in-xff");

/**
 * The caller's IP. server.mjs appends the TCP peer as the last X-Forwarded-For entry, so with no
 * trusted proxy the last entry is the peer and whatever a client wrote before it is ignored; with
 * TRUST_PROXY=n the entry n places before the end is the address our nearest trusted proxy saw.
 * Under a server that does not append the peer (plain `next start`) the header is the client's own
 * words, so no address is known and allowlisted keys fail closed.
 */
export function clientIp(request: Request): string | null {
  if ((globalThis as Record<symbol, unknown>)[PEER_MARK] !== true) return null;
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (chain.length === 0) return null;
  const index = Math.max(chain.length - 1 - env().TRUST_PROXY, 0);
  return normalizeIp(chain[index]!);
}
