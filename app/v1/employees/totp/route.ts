import { startTotpEndpoint } from "@/lib/employees/endpoints";
import { startTotpEnrolment } from "@/lib/auth/two-factor";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a new TOTP secret for the signed-in employee to scan.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(startTotpEndpoint, async ({ actor, audit }) => {
    const started = await startTotpEnrolment({ employeeId: actor.id });
    // Never the secret or its URI.
    audit.details = { after: { enrolmentPending: true } };
    return started;
  }),
});
