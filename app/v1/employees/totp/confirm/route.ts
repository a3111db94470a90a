import { confirmTotpEndpoint } from "@/lib/employees/endpoints";
import { confirmTotpEnrolment } from "@/lib/auth/two-factor";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: turn 2FA on with a first code; returns the recovery codes once.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(confirmTotpEndpoint, async ({ actor, body, commit, audit }) => {
    // Facts only (never the secret or the codes), recorded with the change when it commits.
    audit.details = {
      before: { twoFactorEnabled: false },
      after: { twoFactorEnabled: true },
      recoveryCodesIssued: true,
    };
    return confirmTotpEnrolment({ employeeId: actor.id, code: body.code, commit });
  }),
});
