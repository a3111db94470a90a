import { cookies } from "next/headers";
import { SESSION_COOKIE, resolveSession } from "@/lib/auth/sessions";
import { presentEmployee } from "@/lib/employees/schemas";

/** For server components: the signed-in employee behind the request's cookie, or null. */
export async function currentEmployee() {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await resolveSession(token) : null;
  if (!session) return null;
  return { ...presentEmployee(session.employee), accountName: session.employee.account.name };
}
