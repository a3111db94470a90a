import { NextResponse, type NextRequest } from "next/server";
import {
  HSTS,
  REQUEST_PATH_HEADER,
  SECURITY_HEADERS,
  edgeRefusal,
  edgeSettings,
  pageCsp,
  refusalBody,
  requestPathOf,
  type EdgeSettings,
} from "@/lib/http/edge.mjs";

let settings: EdgeSettings | undefined;

/**
 * Under `next dev` only (next.config.js names this file's extension for the development server alone):
 * in production server.mjs does all of this itself, and no request pays for Next.js's matching of a
 * proxy that applies to pages only (3.6 % of a key-authenticated GET's CPU time, profiled).
 *
 * Pages only (see `config`): a fresh nonce per request for the pages' strict CSP. Next.js reads the
 * nonce from the request's Content-Security-Policy header and puts it on its own scripts and styles.
 * The edge checks run here too, so `next dev` refuses what server.mjs refuses in production
 * (repeated Authorization lines are visible only there).
 */
export function proxy(request: NextRequest) {
  settings ??= edgeSettings(process.env);
  const refusal = edgeRefusal(
    {
      method: request.method,
      path: request.nextUrl.pathname,
      host: request.headers.get("host"),
      forwardedHost: request.headers.get("x-forwarded-host"),
      // A Headers object joins repeated lines with ", "; a bearer key holds no comma.
      authorizationCount: request.headers.get("authorization")?.split(",").length ?? 0,
      cookie: request.headers.get("cookie"),
    },
    settings,
  );
  if (refusal) {
    const requestId = `req_${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`;
    return new NextResponse(refusalBody(refusal, requestId), {
      status: refusal.status,
      headers: {
        "X-Request-Id": requestId,
        ...SECURITY_HEADERS,
        ...refusal.headers,
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
      },
    });
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageCsp(nonce, { development: true });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", csp);
  // For the dashboard's layout: a signed-out visit goes to sign-in with this as `next`. Set here over
  // any client's own header of the name; the layout checks it like any `next` (lib/auth/next-path.ts).
  requestHeaders.set(REQUEST_PATH_HEADER, requestPathOf(request.nextUrl.pathname, request.nextUrl.search.slice(1)));
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  if (settings.cookieSecure) response.headers.set("Strict-Transport-Security", HSTS);
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but the API, the health check, static files and the icon: the paths isPageRequest
      // (lib/http/edge.mjs) takes for pages, as server.mjs does in production.
      source: "/((?!v1/|v1$|healthz$|_next/static/|_next/image|icon\\.svg|favicon\\.ico).*)",
      // Router prefetches are RSC data, not documents: no CSP to enforce.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
