import { updateAccountEndpoint } from "@/lib/accounts/endpoints";
import { updateFeatureFlags } from "@/lib/accounts/feature-flags";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: merge feature-flag preferences into an account of the platform.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateAccountEndpoint, async ({ params, body }) =>
    updateFeatureFlags({ accountId: params.accountId, featureFlags: body.featureFlags }),
  ),
});
