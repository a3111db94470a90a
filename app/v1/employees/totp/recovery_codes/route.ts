import { regenerateRecoveryCodesEndpoint } from "@/lib/employees/endpoints";
import { regenerateRecoveryCodes } from "@/lib/auth/two-factor";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a new set of recovery codes (shown once); the old ones stop working.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(regenerateRecoveryCodesEndpoint, async ({ actor, audit }) => {
    const codes = await regenerateRecoveryCodes({ employeeId: actor.id });
    // How many, never which.
    audit.details = { recoveryCodesIssued: codes.recoveryCodes.length, previousCodesStopped: true };
    return codes;
  }),
});
