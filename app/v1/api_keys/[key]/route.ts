import { revokeApiKey, updateApiKey } from "@/lib/api-keys/api-keys";
import { revokeApiKeyEndpoint, updateApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: change the allowlist and/or the rate limit. DELETE: revoke.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateApiKeyEndpoint, async ({ actor, params, body, audit }) => {
    const { key, before } = await updateApiKey({ issuer: actor, keyId: params.key, changes: body });
    // What the request changed, before and after: only the fields it named.
    const named = (fields: typeof before) =>
      Object.fromEntries(
        Object.entries(fields).filter(([field]) => field in body && body[field as keyof typeof body] !== undefined),
      );
    audit.details = { before: named(before), after: named(key), permissions: key.permissions };
    return key;
  }),
  DELETE: route(revokeApiKeyEndpoint, async ({ actor, params, audit }) => {
    const { key, before } = await revokeApiKey({ keyId: params.key, issuer: actor });
    audit.details = { before, after: { revokedAt: key.revokedAt }, permissions: key.permissions };
    return key;
  }),
});
