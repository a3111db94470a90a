import { methods, route } from "@/lib/http/route";
import { getSettingsEndpoint, updateSettingsEndpoint } from "@/lib/settings/endpoints";
import { getPlatformSettings, updatePlatformSettings } from "@/lib/settings/settings";

export const dynamic = "force-dynamic";

// GET: the platform's settings. POST: change them.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getSettingsEndpoint, async () => getPlatformSettings()),
  POST: route(updateSettingsEndpoint, async ({ body, audit, actor }) => {
    const { settings, before } = await updatePlatformSettings(body, {
      byOwner: actor.permissions.includes("owners"),
    });
    audit.details = { before, after: settings };
    return settings;
  }),
});
