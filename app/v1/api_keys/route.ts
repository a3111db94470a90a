import { issueApiKey, listApiKeys } from "@/lib/api-keys/api-keys";
import { issueApiKeyEndpoint, listApiKeysEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

// GET: the account's keys. POST: issue one (secret shown once).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listApiKeysEndpoint, async ({ actor }) => listApiKeys({ accountId: actor.accountId })),
  POST: route(issueApiKeyEndpoint, async ({ actor, body }) =>
    issueApiKey({ ...body, accountId: actor.accountId, createdById: actor.type === "employee" ? actor.id : null }),
  ),
});
