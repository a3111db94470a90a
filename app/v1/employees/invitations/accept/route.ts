import { acceptInvitation } from "@/lib/employees/invitations";
import { acceptInvitationEndpoint } from "@/lib/employees/endpoints";
import { presentSession } from "@/lib/auth/sign-in";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: activate the invited employee; with a password they chose, sign them in (under required SSO, they sign in there).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(acceptInvitationEndpoint, async ({ body, ip, headers, commit }) => {
    const result = await acceptInvitation({ ...body, ip, commit });
    if (result.signIn === "sso") return { signIn: result.signIn };
    headers.append("Set-Cookie", result.cookie);
    return { ...presentSession(result), signIn: result.signIn };
  }),
});
