import { cookies } from "next/headers";
import { SESSION_COOKIE, resolveSession } from "@/lib/auth/sessions";
import { presentSession } from "@/lib/auth/sign-in";
import { sessionSchema } from "@/lib/employees/schemas";

/**
 * For server components: the signed-in employee behind the request's cookie, exactly as
 * GET /v1/sessions/current shows them (through the same schema, so dates are strings), or null.
 */
export async function currentEmployee() {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await resolveSession(token) : null;
  if (!session) return null;
  return sessionSchema.parse(
    JSON.parse(
      JSON.stringify(presentSession({ employee: session.employee, account: session.employee.account, session })),
    ),
  );
}
