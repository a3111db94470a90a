import { startTotpEndpoint } from "@/lib/employees/endpoints";
import { startTotpEnrolment } from "@/lib/auth/two-factor";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a new TOTP secret for the signed-in employee to scan, once their current password is proven.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(startTotpEndpoint, async ({ actor, body, ip, commit, audit }) => {
    // Never the secret or its URI. Set first: the handler's own commit writes the success record (a refusal keeps no details).
    audit.details = { after: { enrolmentPending: true } };
    return startTotpEnrolment({ employeeId: actor.id, password: body.password, ip, commit });
  }),
});
