import { resetEmployeeTwoFactor } from "@/lib/employees/employees";
import { resetTwoFactorEndpoint } from "@/lib/employees/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE: turn off another employee's two-factor authentication, so they enrol again.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(resetTwoFactorEndpoint, async ({ actor, params, audit }) => {
    const { employee, before } = await resetEmployeeTwoFactor({ actor, id: params.id });
    audit.details = {
      before,
      after: { twoFactorEnabled: employee.twoFactorEnabled },
      sessionsEnded: true,
      recoveryCodesDeleted: true,
    };
    return employee;
  }),
});
