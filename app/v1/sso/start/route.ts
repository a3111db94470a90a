import { ssoStartEndpoint } from "@/lib/sso/endpoints";
import { loginWithError, redirectTo, stateCookie } from "@/lib/sso/browser";
import { SsoRefusal, startSsoSignIn } from "@/lib/sso/flow";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: redirect the browser to the platform's OpenID provider (or back to sign-in saying why not).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(ssoStartEndpoint, async ({ query, request, ip }) => {
    const origin = publicOrigin(request);
    try {
      const { url, state } = await startSsoSignIn({
        email: query.email ?? "",
        next: query.next,
        ip,
        redirectUri: `${origin}/v1/sso/callback`,
      });
      return redirectTo(url.href, 302, [stateCookie(state)]);
    } catch (error) {
      if (error instanceof SsoRefusal) return redirectTo(loginWithError(origin, error.message), 302, []);
      throw error;
    }
  }),
});
