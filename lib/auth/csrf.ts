import { env } from "@/lib/env";

/**
 * Whether a request provably comes from our own pages. Browsers send Sec-Fetch-Site and Origin on
 * every cross-site POST/DELETE, and a page on another site cannot forge either.
 * `requireProof`: with neither header, refuse (cookie-authenticated mutations); otherwise allow
 * (sign-in and setup from non-browser clients, which carry no ambient cookie to abuse).
 */
export function isSameOrigin(request: Request, { requireProof }: { requireProof: boolean }): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none";
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return !requireProof && !origin;
  // With APP_ORIGIN set it is the only origin (CONTRACT.md, "Operations decisions"); otherwise the request's own Host.
  const allowed = env().APP_ORIGIN;
  if (allowed) return new URL(allowed).origin === origin;
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}
