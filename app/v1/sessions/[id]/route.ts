import { endOwnSessionEndpoint } from "@/lib/employees/endpoints";
import { endOwnSession } from "@/lib/auth/sessions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE: end one of one's own sessions (another browser, say).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(endOwnSessionEndpoint, async ({ actor, params }) =>
    endOwnSession({ employeeId: actor.id, sessionId: actor.sessionId, id: params.id }),
  ),
});
