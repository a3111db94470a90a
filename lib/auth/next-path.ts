/**
 * The one check for every place the service sends a browser to a page named by the request (`next` at
 * sign-in, the page an SSO sign-in returns to, a signed-out visit's way back): a path of this site only.
 *
 * The target is resolved first, the way the browser will resolve it (`new URL(next, origin)`: percent-
 * encoded dots decoded, dot segments removed), and only then checked: same origin, and a path that
 * starts with exactly one `/`, not followed by `/` or `\` once decoded. Checking the text before
 * resolving it let `/.//evil.example` and `/a/..//evil.example` through as `//evil.example`, which a
 * browser reads as another site. Control characters and backslashes anywhere are refused too: browsers
 * strip or reinterpret them in URLs.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  // Paths only (an absolute URL of this very site is no use to anyone), and nothing a browser rewrites.
  if (!next.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(next)) return null;
  const base = new URL(PLACEHOLDER_ORIGIN);
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !startsWithOneSlash(url.pathname)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (!startsWithOneSlash(decoded)) return null;
  // The sign-in page itself would only loop.
  if (url.pathname === "/login") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/` followed by anything but `/` or `\` (the start of a scheme-relative URL to a browser). */
const startsWithOneSlash = (path: string) => /^\/(?![/\\])/.test(path);

/** Any origin answers the same as the service's own would: a path that stays on it is kept, and only the path. */
const PLACEHOLDER_ORIGIN = "http://service.invalid";

/** Where to send the browser: `next` when it is a safe path of this site (safeNextPath), otherwise `fallback`. */
export function redirectTarget(next: string | null | undefined, fallback = "/"): string {
  return safeNextPath(next) ?? fallback;
}

/** The sign-in page, returning to `pathAndQuery` afterwards when it is a safe place to return to. */
export function loginHref(pathAndQuery: string | null | undefined): string {
  const next = safeNextPath(pathAndQuery);
  return next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
