import { acceptInvitation } from "@/lib/employees/invitations";
import { acceptInvitationEndpoint } from "@/lib/employees/endpoints";
import { presentSession } from "@/lib/auth/sign-in";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: set a password with an invitation token, activate the employee and sign them in.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(acceptInvitationEndpoint, async ({ body, ip, headers, commit }) => {
    const result = await acceptInvitation({ ...body, ip, commit });
    headers.append("Set-Cookie", result.cookie);
    return presentSession(result);
  }),
});
