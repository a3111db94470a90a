import { listOwnSessionsEndpoint, signInEndpoint } from "@/lib/employees/endpoints";
import { presentSession, signIn } from "@/lib/auth/sign-in";
import { listOwnSessions } from "@/lib/auth/sessions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the signed-in employee's own sessions. POST: sign in with e-mail, password and (once 2FA is on) a code.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listOwnSessionsEndpoint, async ({ actor }) =>
    listOwnSessions({ employeeId: actor.id, sessionId: actor.sessionId }),
  ),
  POST: route(signInEndpoint, async ({ body, ip, headers, commit }) => {
    const result = await signIn({ ...body, ip, commit });
    headers.append("Set-Cookie", result.cookie);
    return presentSession(result);
  }),
});
