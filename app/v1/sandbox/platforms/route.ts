import { createSandboxPlatform } from "@/lib/accounts/platforms";
import { createSandboxPlatformEndpoint } from "@/lib/accounts/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a new, separate platform with a working API key (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(createSandboxPlatformEndpoint, async ({ body, audit }) => {
    const result = await createSandboxPlatform(body);
    audit.targetId = result.account.id;
    return result;
  }),
});
