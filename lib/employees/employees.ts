import { notFound } from "@/lib/http/api-error";
import { presentEmployee } from "@/lib/employees/schemas";
import { tenantDb } from "@/lib/tenancy";

// tenantDb() confines Employee queries to the scope's platform account, so another platform's
// employee is simply not found (404, never 403).

/** The platform's employees, oldest first. */
export async function listEmployees() {
  const rows = await tenantDb().employee.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentEmployee);
}

export async function findEmployee({ id }: { id: string }) {
  const row = await tenantDb().employee.findUnique({ where: { id } });
  if (!row) throw notFound("Employee");
  return presentEmployee(row);
}
