import { readFeatureFlagsEndpoint, updateFeatureFlagsEndpoint } from "@/lib/accounts/endpoints";
import { readFeatureFlags, updateFeatureFlags } from "@/lib/accounts/feature-flags";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the scope's account's flag map. POST: merge flags into it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(readFeatureFlagsEndpoint, async ({ scope }) => readFeatureFlags({ accountId: scope.accountId })),
  POST: route(updateFeatureFlagsEndpoint, async ({ scope, body, audit }) => {
    audit.targetId = scope.accountId;
    const account = await updateFeatureFlags({ accountId: scope.accountId, featureFlags: body });
    return account.featureFlags;
  }),
});
