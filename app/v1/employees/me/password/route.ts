import { changePasswordEndpoint } from "@/lib/employees/endpoints";
import { changeOwnPassword } from "@/lib/auth/sign-in";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: change one's own password; every other session ends.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(changePasswordEndpoint, async ({ actor, body, commit, audit }) => {
    // Facts only (never a password), recorded with the change when it commits.
    audit.details = { passwordChanged: true, otherSessionsEnded: true };
    return changeOwnPassword({ employeeId: actor.id, sessionId: actor.sessionId, ...body, commit });
  }),
});
