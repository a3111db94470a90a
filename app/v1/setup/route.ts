import { setupEndpoint } from "@/lib/employees/endpoints";
import { presentSession } from "@/lib/auth/sign-in";
import { authorizeSetup, setupPlatform } from "@/lib/employees/setup";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: first-run setup of the platform and its first employee.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(setupEndpoint, async ({ body: { setupToken, ...body }, ip, headers, commit }) => {
    await authorizeSetup(setupToken);
    const result = await setupPlatform({ ...body, ip, commit });
    headers.append("Set-Cookie", result.cookie);
    return presentSession(result);
  }),
});
