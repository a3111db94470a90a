import { ssoCallbackEndpoint } from "@/lib/sso/endpoints";
import { clearedStateCookie, loginWithError, readStateCookie, redirectTo } from "@/lib/sso/browser";
import { finishSsoSignIn } from "@/lib/sso/flow";
import { errorMessageOf, recordSsoRefusal } from "@/lib/sso/refusal";
import { publicOrigin } from "@/lib/http/public-origin";
import { redirectTarget } from "@/lib/auth/next-path";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the provider's redirect back: sign in and go to the dashboard, or back to sign-in saying why not.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(ssoCallbackEndpoint, async ({ request, ip, commit, requestId }) => {
    const origin = publicOrigin(request);
    const currentUrl = new URL(`${origin}/v1/sso/callback${new URL(request.url).search}`);
    try {
      const signedIn = await finishSsoSignIn({ currentUrl, browserState: readStateCookie(request), ip, commit });
      return redirectTo(`${origin}${redirectTarget(signedIn.returnTo)}`, 303, [signedIn.cookie, clearedStateCookie()]);
    } catch (error) {
      // Whatever failed, the browser goes back to sign-in with a message and no session: never a 5xx page.
      const message = errorMessageOf(error, requestId);
      await recordSsoRefusal({ error, message, requestId, ip });
      return redirectTo(loginWithError(origin, message), 303, [clearedStateCookie()]);
    }
  }),
});
