import { issueApiKey, keyPermissionsFor, listApiKeys } from "@/lib/api-keys/api-keys";
import { issueApiKeyEndpoint, listApiKeysEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the account's keys. POST: issue one (secret shown once), with no permission the issuer lacks.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listApiKeysEndpoint, () => listApiKeys()),
  POST: route(issueApiKeyEndpoint, async ({ actor, body, audit }) => {
    const key = await issueApiKey({
      ...body,
      createdBy: { type: actor.type, id: actor.id },
      permissions: keyPermissionsFor(actor, body.permissions),
    });
    audit.details = {
      after: {
        name: key.name,
        permissions: key.permissions,
        cidrAllowlist: key.cidrAllowlist,
        expiresAt: key.expiresAt,
        rateLimit: key.rateLimit,
      },
    };
    return key;
  }),
});
