import { signInEndpoint } from "@/lib/employees/endpoints";
import { presentSession } from "@/lib/employees/present-session";
import { signIn } from "@/lib/employees/sign-in";
import { methods, route } from "@/lib/http/route";

// POST: sign in with e-mail, password and (once 2FA is on) a code.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(signInEndpoint, async ({ body, ip, headers, audit }) => {
    const result = await signIn({ ...body, ip });
    headers.append("Set-Cookie", result.cookie);
    audit.actor = { type: "employee", id: result.employee.id, platformId: result.account.platformId, accountId: result.employee.accountId };
    return presentSession(result);
  }),
});
