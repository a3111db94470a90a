import type { RateCount } from "@/lib/auth/rate-limit";

/** The policy's name in both fields: one limit per key. */
const POLICY = '"key"';

/**
 * The IETF fields (draft-ietf-httpapi-ratelimit-headers-11, structured-field lists): `RateLimit-Policy`
 * names the quota `q` per window `w` seconds; `RateLimit` the requests `r` still admitted and the seconds
 * `t` until the window resets. A refusal adds Retry-After (the same `t`, at least 1).
 */
export function setRateLimitHeaders(headers: Headers, count: RateCount): void {
  headers.set("RateLimit-Policy", `${POLICY};q=${count.limit.requests};w=${count.limit.perSeconds}`);
  headers.set("RateLimit", `${POLICY};r=${count.remaining};t=${count.resetSeconds}`);
}
