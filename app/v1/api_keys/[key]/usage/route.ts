import { apiKeyUsageEndpoint } from "@/lib/api-keys/endpoints";
import { readKeyUsage } from "@/lib/api-keys/usage";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the key's requests per UTC day for the last 30 days, by outcome.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(apiKeyUsageEndpoint, ({ params }) => readKeyUsage({ keyId: params.key })),
});
