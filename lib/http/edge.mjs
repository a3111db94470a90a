// The HTTP edge: the security headers and the checks every request passes before any route sees it.
// Shared by server.mjs (every request in production, with the raw request at hand, pages' CSP included),
// proxy.dev.ts (pages, under `next dev` only) and next.config.js (the fixed headers on everything `next dev` serves; in
// production server.mjs sets them on every response itself). Plain JavaScript so the plain Node server can import it; types in edge.d.mts.

import { SESSION_COOKIE, countSessionCookies } from "../auth/session-cookie.mjs";

/** The methods the service answers; anything else is 405 before Next.js sees it. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Headers on every response. The CSP here is for everything that is not a page (API JSON, static
 * files, the health check): nothing may load from it and nothing may frame it. Pages get their own
 * CSP with a per-request nonce (pageCsp, isPageRequest), which replaces this one.
 */
export const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** Sent when COOKIE_SECURE=true, that is when the service is reached over HTTPS. */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * The pages' CSP. Scripts run only with this request's nonce (Next.js puts it on its own scripts)
 * or when loaded by such a script ('strict-dynamic'); no inline or eval'd script. Style sheets and
 * <style> elements likewise need the nonce or our own origin; style attributes (React's `style`
 * prop, rendered on the server) are allowed, since they cannot run code. `next dev` needs eval and
 * inline styles for its tooling, so only there are they allowed.
 */
export function pageCsp(nonce, { development = false } = {}) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The header that hands a page's own path and query to the dashboard's layout (app/(dashboard)/layout.tsx). */
export const REQUEST_PATH_HEADER = "x-request-path";

/** The paths that are no page: the API, the health check, static files and the icon (proxy.dev.ts's matcher says the same). */
const NOT_A_PAGE = /^\/(?:v1\/|v1$|healthz$|readyz$|_next\/static\/|_next\/image|icon\.svg|favicon\.ico)/;

/**
 * Whether a request asks for a page, whose answer carries pageCsp with a nonce of its own: any path
 * but those of NOT_A_PAGE, unless it is one of the router's prefetches (RSC data, not a document).
 * `header(name)`: the request's header of that (lower-case) name.
 */
export function isPageRequest(path, header) {
  return !NOT_A_PAGE.test(path) && header("next-router-prefetch") == null && header("purpose") !== "prefetch";
}

/**
 * The value of REQUEST_PATH_HEADER for a page request: its path and query (`query` as sent, without
 * "?"), without the `_rsc` cache-buster that client-side navigation adds.
 */
export function requestPathOf(path, query) {
  if (!query) return path;
  const params = new URLSearchParams(query);
  params.delete("_rsc");
  return params.size ? `${path}?${params}` : path;
}

/**
 * The settings the edge needs, read from the environment. lib/env.ts has validated them at start-up
 * (instrumentation.ts) before the server listens; this reads the same variables the same way
 * (lib/http/edge.test.ts holds the two together).
 */
export function edgeSettings(source) {
  const origin = source.APP_ORIGIN ? new URL(source.APP_ORIGIN) : null;
  const trust = source.TRUST_PROXY || "false";
  const defaultPort = origin?.protocol === "https:" ? "443" : "80";
  return {
    /** Host header values that name APP_ORIGIN (with and without its default port), or null: any Host. */
    appHosts: origin ? (origin.port ? [origin.host] : [origin.host, `${origin.host}:${defaultPort}`]) : null,
    cookieSecure: ["true", "1", "yes", "on"].includes(source.COOKIE_SECURE || ""),
    trustProxy: trust === "true" ? 1 : trust === "false" ? 0 : Number(trust),
  };
}

/**
 * Whether the request names APP_ORIGIN's host. Behind a trusted proxy (TRUST_PROXY) that sends
 * X-Forwarded-Host, every entry of it must; otherwise the Host header must.
 */
export function hostAllowed({ host, forwardedHost }, settings) {
  if (!settings.appHosts) return true;
  const named = settings.trustProxy > 0 && forwardedHost ? forwardedHost.split(",") : [host ?? ""];
  return named.every((value) => settings.appHosts.includes(value.trim().toLowerCase()));
}

/** Keys that name parts of JavaScript's object model (lib/contract/text.ts has the same list and message for bodies). */
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"];
const PROTOTYPE_KEY_MESSAGE = `is not accepted as a key (${PROTOTYPE_KEYS.join(", ")} never are)`;

/**
 * The first prototype key among the names of a query string (`a=1&__proto__=2`, as sent,
 * without "?"), decoded as URLSearchParams decodes them, or null. Checked here because Next.js never
 * hands `__proto__` to a route handler: its router copies the query into a plain object, where
 * `query["__proto__"] = value` sets the object's prototype instead of a key, and builds the handler's
 * request.url from that object. The route wrapper checks the query it gets as well (tests, `next dev`).
 */
export function prototypeKeyInQuery(query) {
  if (!query) return null;
  for (const key of new URLSearchParams(query).keys()) if (PROTOTYPE_KEYS.includes(key)) return key;
  return null;
}

/**
 * Why the edge refuses a request, in the contract's terms, or null to let it through.
 * `authorizationCount`: how many Authorization header lines the request carried; `query`: the raw
 * query string. /healthz and /readyz answer any Host, so load balancers can probe an instance by its address.
 */
export function edgeRefusal({ method, path, query, host, forwardedHost, authorizationCount, cookie }, settings) {
  if (!ALLOWED_METHODS.includes(method)) {
    return {
      status: 405,
      code: "err_method_not_allowed",
      message: `The method ${/^[!-~]{1,32}$/.test(method) ? method : "given"} is not supported; use ${ALLOWED_METHODS.join(", ")}`,
      headers: { Allow: ALLOWED_METHODS.join(", ") },
    };
  }
  if (path !== "/healthz" && path !== "/readyz" && !hostAllowed({ host, forwardedHost }, settings)) {
    return {
      status: 400,
      code: "err_bad_request",
      message: "Unknown host: this service answers only at its configured origin (APP_ORIGIN)",
    };
  }
  if (authorizationCount > 1) {
    return { status: 400, code: "err_bad_request", message: "Send one Authorization header, not several" };
  }
  if (countSessionCookies(cookie) > 1) {
    return { status: 400, code: "err_bad_request", message: `Send one ${SESSION_COOKIE} cookie, not several` };
  }
  // On every path, not only /v1: which path reaches which route is Next.js's business (encodings, slashes).
  const prototypeKey = prototypeKeyInQuery(query);
  if (prototypeKey) {
    // The 422 the route wrapper gives a body's or query's prototype key (lib/http/api-error.ts validationError).
    const details = Object.create(null);
    details[prototypeKey] = PROTOTYPE_KEY_MESSAGE;
    return { status: 422, code: "err_validation", message: `${prototypeKey}: ${PROTOTYPE_KEY_MESSAGE}`, details };
  }
  return null;
}

/** A client's own X-Request-Id that is echoed and kept apart: 1 to 128 visible ASCII characters. */
export const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The request header that carries server.mjs's id of the request to the app, set over anything a client
 * sent, so the app's answers, audit records and log lines name the id server.mjs gave the request. The
 * app reads it only while server.mjs is in front (SERVER_REQUEST_IDS, a process-wide flag server.mjs sets).
 */
export const SERVER_REQUEST_ID_HEADER = "x-pmc-server-request-id";
export const SERVER_REQUEST_IDS = Symbol.for("platform-compliance.server-request-ids");
export const SERVER_REQUEST_ID = /^req_[0-9a-f]{24}$/;

/** The contract's error body for a refusal, naming the server's id of the request (`request_id`). */
export function refusalBody(refusal, requestId) {
  return JSON.stringify({
    error_code: refusal.code,
    message: refusal.message,
    http_code: refusal.status,
    ...(refusal.details ? { details: refusal.details } : {}),
    request_id: requestId,
  });
}
