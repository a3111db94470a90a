import { acceptPasswordResetEndpoint } from "@/lib/employees/endpoints";
import { acceptPasswordReset } from "@/lib/employees/password-reset";
import { withAuditDetails } from "@/lib/audit/trail";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: set a new password with a reset token; every session of the employee ends.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(acceptPasswordResetEndpoint, async ({ body, audit, commit }) =>
    acceptPasswordReset({
      ...body,
      commit: withAuditDetails(commit, (done: { endedSessions: number }) => {
        audit.details = { endedSessions: done.endedSessions };
      }),
    }),
  ),
});
