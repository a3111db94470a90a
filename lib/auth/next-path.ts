/**
 * Where sign-in may return to: a path of this site only. `next` comes from the address bar, so
 * anything else (another origin, `//evil.example`, `/\evil.example`, which browsers read as
 * `//evil.example`, a scheme such as `javascript:`) is refused and the employee goes home instead.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return null;
  // Control characters and backslashes anywhere: browsers strip or reinterpret them in URLs.
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return null;
  // Resolved against a placeholder origin: a path stays on it; anything that leaves it is not a path.
  const base = "http://next.invalid";
  const url = new URL(next, base);
  if (url.origin !== base) return null;
  // The login page itself would only loop.
  if (url.pathname === "/login") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page, returning to `pathAndQuery` afterwards when it is a safe place to return to. */
export function loginHref(pathAndQuery: string | null | undefined): string {
  const next = safeNextPath(pathAndQuery);
  return next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
