import { db } from "@/lib/db";
import { clearedSessionCookie, revokeSession } from "@/lib/auth/sessions";
import { currentSessionEndpoint, signOutEndpoint } from "@/lib/employees/endpoints";
import { presentSession } from "@/lib/auth/sign-in";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the signed-in employee. DELETE: sign out.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(currentSessionEndpoint, async ({ actor }) => {
    const session = await db().session.findUniqueOrThrow({
      where: { id: actor.sessionId },
      include: { employee: { include: { account: true } } },
    });
    return presentSession({ employee: session.employee, account: session.employee.account, session });
  }),
  DELETE: route(signOutEndpoint, async ({ actor, headers }) => {
    await revokeSession(actor.sessionId);
    headers.append("Set-Cookie", clearedSessionCookie());
    return { signedOut: true as const };
  }),
});
