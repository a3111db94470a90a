import { listEmployeeCredentials } from "@/lib/employees/employees";
import { employeeCredentialsEndpoint } from "@/lib/employees/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the keys and webhook endpoints an employee created that still work (what offboarding would revoke).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(employeeCredentialsEndpoint, async ({ actor, params }) =>
    listEmployeeCredentials({ actor, id: params.id }),
  ),
});
