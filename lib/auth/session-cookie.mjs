// The session cookie's name and how many of them a Cookie header carries. Plain JavaScript so the
// edge checks (lib/http/edge.mjs, run by the plain Node server) and the sessions (lib/auth/sessions.ts)
// share one definition; types in session-cookie.d.mts.

/** The session cookie's name (lib/auth/sessions.ts re-exports it). */
export const SESSION_COOKIE = "pmc_session";

/**
 * How many session cookies a Cookie header carries. Node joins repeated Cookie headers with "; ",
 * a WHATWG Headers object with ", "; cookie values never contain either, so both split the same way.
 */
export function countSessionCookies(cookieHeader) {
  if (!cookieHeader) return 0;
  let count = 0;
  for (const part of cookieHeader.split(/[;,]/)) {
    if (part.slice(0, part.indexOf("=")).trim() === SESSION_COOKIE) count += 1;
  }
  return count;
}
