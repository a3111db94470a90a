import { ssoTestEndpoint } from "@/lib/sso/endpoints";
import { testIssuer } from "@/lib/sso/issuer";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: try an issuer's OpenID discovery before saving it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(ssoTestEndpoint, async ({ body }) => testIssuer(body.issuer)),
});
