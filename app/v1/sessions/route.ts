import { listOwnSessionsEndpoint, signInEndpoint } from "@/lib/employees/endpoints";
import { presentSession, signIn } from "@/lib/auth/sign-in";
import { listOwnSessions } from "@/lib/auth/sessions";
import { methods, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";

export const dynamic = "force-dynamic";

// GET: the signed-in employee's own sessions. POST: sign in with e-mail, password and (once 2FA is on) a code or a passkey.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listOwnSessionsEndpoint, async ({ actor }) =>
    listOwnSessions({ employeeId: actor.id, sessionId: actor.sessionId }),
  ),
  POST: route(signInEndpoint, async ({ body: { passkey, ...body }, ip, headers, commit, request, requestId }) => {
    const rp = relyingPartyOf(publicOrigin(request));
    const result = await signIn({ ...body, passkey: passkey && { assertion: passkey, rp, requestId }, ip, commit });
    headers.append("Set-Cookie", result.cookie);
    return presentSession(result);
  }),
});
