import { env } from "@/lib/env";

/**
 * The origin people reach this service at, for links the service hands out (invitations):
 * APP_ORIGIN when set, otherwise the request's own Host (behind a trusted proxy, its forwarded
 * host and scheme). Not request.url: behind server.mjs that is Next.js's default localhost:3000.
 */
export function publicOrigin(request: Request): string {
  const configured = env().APP_ORIGIN;
  if (configured) return new URL(configured).origin;
  const trusted = env().TRUST_PROXY > 0;
  const host =
    (trusted && request.headers.get("x-forwarded-host")?.split(",")[0]?.trim()) || request.headers.get("host");
  const scheme =
    (trusted && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim()) ||
    (env().COOKIE_SECURE ? "https" : "http");
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `${scheme}://${host}` : new URL(request.url).origin;
}
