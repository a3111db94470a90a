import { publicOrigin } from "@/lib/http/public-origin";

/**
 * Whether a request provably comes from our own pages. Browsers send Sec-Fetch-Site and Origin on
 * every cross-site POST/DELETE, and a page on another site cannot forge either. When Origin is sent
 * it must be this service's whole origin, scheme, host and port (docs/security.md, Sessions and
 * cross-site requests): APP_ORIGIN when set, otherwise the request's own (lib/http/public-origin.ts:
 * its Host, and the scheme people reach it by). Not request.url: server.mjs and `next start` serve plain HTTP, and
 * Next.js builds that URL's scheme from an X-Forwarded-Proto any client may send.
 * `requireProof`: with neither header, refuse (cookie-authenticated mutations); otherwise allow
 * (sign-in and setup from non-browser clients, which carry no ambient cookie to abuse).
 */
export function isSameOrigin(request: Request, { requireProof }: { requireProof: boolean }): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = request.headers.get("origin");
  if (!origin) return !requireProof || fetchSite !== null;
  return sameOrigin(origin, publicOrigin(request));
}

/** Whether two serialised origins are the same origin (default ports and letter case as the URL parser has them). */
function sameOrigin(given: string, expected: string): boolean {
  if (!URL.canParse(given) || !URL.canParse(expected)) return false;
  const origin = new URL(given).origin;
  // "null" (a sandboxed frame, a data: URL) is opaque: never ours.
  return origin !== "null" && origin === new URL(expected).origin;
}
