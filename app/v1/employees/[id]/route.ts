import { findEmployee } from "@/lib/employees/employees";
import { getEmployeeEndpoint } from "@/lib/employees/endpoints";
import { methods, route } from "@/lib/http/route";

// GET: one employee of the platform.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getEmployeeEndpoint, async ({ params }) => findEmployee({ id: params.id })),
});
