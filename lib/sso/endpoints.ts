import { endpointGroup } from "@/lib/contract/endpoint";
import { ssoCallbackQuery, ssoStartQuery, ssoTestInput, ssoTestResultSchema } from "@/lib/sso/schemas";

const define = endpointGroup({ tag: "Single sign-on", auth: "public", permission: null });

export const ssoStartEndpoint = define("GET /v1/sso/start", {
  summary: "Start signing in through the platform's OpenID provider (extension)",
  description:
    "A browser navigation, not an API call: redirects (302) to the issuer's authorization endpoint (authorization " +
    "code flow with PKCE, `state` and `nonce`), and sets a short-lived httpOnly cookie holding the `state`, which " +
    "binds the sign-in to this browser. The platform is the employee's, or else the one whose `allowedDomains` hold " +
    "the e-mail's domain. Anything wrong redirects to `/login?sso_error=<message>` instead.",
  query: ssoStartQuery,
  status: 302,
  produces: ["text/plain"],
});

export const ssoCallbackEndpoint = define("GET /v1/sso/callback", {
  action: "session.sso",
  ownTransactions: true, // the session and its audit record commit together; a refusal writes nothing
  summary: "Where the OpenID provider sends the browser back (extension)",
  description:
    "Checks the `state` (this browser's cookie, unused, at most 10 minutes old), exchanges the code with the PKCE " +
    "verifier, and checks the ID token: signature (the issuer's JWKS), issuer, audience, expiry and nonce. The " +
    "asserted e-mail must be verified (`email_verified`), in one of `allowedDomains` (when any), and belong to an " +
    "active employee of the platform (no employee is created). Then signs in (session cookie; the session counts as " +
    "two factors) and redirects (303) to the dashboard. A refusal redirects to `/login?sso_error=<message>` and " +
    "sets no session; it never answers 5xx.",
  query: ssoCallbackQuery,
  status: 303,
  produces: ["text/plain"],
});

export const ssoTestEndpoint = endpointGroup({ tag: "Settings", auth: "session", platformWide: true })(
  "POST /v1/settings/sso/test",
  {
    action: "settings.sso_test",
    summary: "Try an issuer's OpenID discovery (extension)",
    description:
      "Owners only. Fetches `<issuer>/.well-known/openid-configuration` and checks that it names the same issuer; " +
      "answers what it says, or 422 with `details.issuer` saying what failed. Changes nothing.",
    permission: "owners",
    body: ssoTestInput,
    response: ssoTestResultSchema,
    errors: [422],
  },
);
