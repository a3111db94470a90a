import { verifyEmployeeTotp } from "@/lib/auth/two-factor";
import type { RequestState } from "@/lib/http/pipeline/request-state";

/** The Service-Totp-Code step-up an endpoint with `totp` asks of an employee (an API key has no second factor). */
export async function checkTotp(state: RequestState): Promise<void> {
  const { definition, actor } = state;
  if (definition.totp && actor?.type === "employee") {
    await verifyEmployeeTotp({ employeeId: actor.id, code: state.request.headers.get("service-totp-code") });
  }
}
