import { env } from "@/lib/env";
import { SSO_LOGIN_TTL_SECONDS } from "@/lib/sso/flow";

// What the browser carries between /v1/sso/start and /v1/sso/callback: the state, in an httpOnly cookie
// sent only to /v1/sso. SameSite=Lax still sends it on the provider's top-level redirect back.

const STATE_COOKIE = "sso_state";

const attributes = (maxAge: number) =>
  `Path=/v1/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${env().COOKIE_SECURE ? "; Secure" : ""}`;

export const stateCookie = (state: string) => `${STATE_COOKIE}=${state}; ${attributes(SSO_LOGIN_TTL_SECONDS)}`;

export const clearedStateCookie = () => `${STATE_COOKIE}=; ${attributes(0)}`;

/** The state this browser started with; none when absent or when several cookies of that name disagree. */
export function readStateCookie(request: Request): string | null {
  const values = (request.headers.get("cookie") ?? "")
    .split(/[;,]/)
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${STATE_COOKIE}=`))
    .map((part) => part.slice(STATE_COOKIE.length + 1));
  return values.length === 1 && values[0] ? values[0] : null;
}

/** A redirect the browser follows, with cookies to set. */
export function redirectTo(location: string, status: 302 | 303, cookies: string[]): Response {
  const headers = new Headers({ Location: location, "Content-Type": "text/plain; charset=utf-8" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status, headers });
}

/** The sign-in page showing why SSO did not sign the employee in. */
export const loginWithError = (origin: string, message: string) =>
  `${origin}/login?${new URLSearchParams({ sso_error: message.slice(0, 300) })}`;
