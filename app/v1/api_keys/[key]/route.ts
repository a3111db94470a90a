import { revokeApiKey, updateApiKeyAllowlist } from "@/lib/api-keys/api-keys";
import { revokeApiKeyEndpoint, updateApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: replace the allowlist. DELETE: revoke.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateApiKeyEndpoint, async ({ actor, params, body, audit }) => {
    const { key, before } = await updateApiKeyAllowlist({
      issuer: actor,
      keyId: params.key,
      cidrAllowlist: body.cidrAllowlist,
    });
    audit.details = { before, after: { cidrAllowlist: key.cidrAllowlist }, permissions: key.permissions };
    return key;
  }),
  DELETE: route(revokeApiKeyEndpoint, async ({ actor, params, audit }) => {
    const { key, before } = await revokeApiKey({ keyId: params.key, issuer: actor });
    audit.details = { before, after: { revokedAt: key.revokedAt }, permissions: key.permissions };
    return key;
  }),
});
