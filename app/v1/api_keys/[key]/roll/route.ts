import { rollApiKey } from "@/lib/api-keys/api-keys";
import { rollApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a new secret for the key's settings; the old one works for the overlap, then stops.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(rollApiKeyEndpoint, async ({ actor, params, body, audit }) => {
    const { key, rolled } = await rollApiKey({
      issuer: actor,
      keyId: params.key,
      expiresAt: body.expiresAt,
      overlapSeconds: body.overlapSeconds,
    });
    audit.details = {
      rolledTo: key.id,
      before: { expiresAt: rolled.expiresAtBefore },
      after: { expiresAt: rolled.expiresAtAfter },
      successor: {
        id: key.id,
        expiresAt: key.expiresAt,
        permissions: key.permissions,
        cidrAllowlist: key.cidrAllowlist,
      },
    };
    return key;
  }),
});
