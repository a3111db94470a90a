import { changeEmployeeRole, deactivateEmployee, findEmployee } from "@/lib/employees/employees";
import { changeRoleEndpoint, deactivateEmployeeEndpoint, getEmployeeEndpoint } from "@/lib/employees/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one employee of the platform. POST: change their role. DELETE: deactivate them (and revoke what they created, when asked).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getEmployeeEndpoint, async ({ params }) => findEmployee({ id: params.id })),
  POST: route(changeRoleEndpoint, async ({ actor, params, body, audit }) => {
    const { employee, before } = await changeEmployeeRole({ actor, id: params.id, role: body.role });
    audit.details = { before, after: { role: employee.role } };
    return employee;
  }),
  DELETE: route(deactivateEmployeeEndpoint, async ({ actor, params, query, audit }) => {
    const revokeCredentials = query.revokeCredentials ?? false;
    const { employee, before } = await deactivateEmployee({ actor, id: params.id, revokeCredentials });
    const { apiKeys, webhookEndpoints } = employee.createdCredentials;
    audit.details = {
      before,
      after: { status: employee.status, deactivatedAt: employee.deactivatedAt },
      revokeCredentials,
      ...(revokeCredentials && { revokedApiKeys: apiKeys, disabledWebhookEndpoints: webhookEndpoints }),
    };
    return employee;
  }),
});
