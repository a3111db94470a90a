import { revokeApiKey, updateApiKeyAllowlist } from "@/lib/api-keys/api-keys";
import { revokeApiKeyEndpoint, updateApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: replace the allowlist. DELETE: revoke.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateApiKeyEndpoint, async ({ actor, params, body }) =>
    updateApiKeyAllowlist({ issuer: actor, keyId: params.key, cidrAllowlist: body.cidrAllowlist }),
  ),
  DELETE: route(revokeApiKeyEndpoint, async ({ params }) => revokeApiKey({ keyId: params.key })),
});
