import { verifyEmployeeTotp } from "@/lib/auth/two-factor";
import { DomainError } from "@/lib/errors";
import { parsePasskeyHeader, verifyPasskeyAssertion } from "@/lib/passkeys/assertions";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";
import { publicOrigin } from "@/lib/http/public-origin";
import type { RequestState } from "@/lib/http/pipeline/request-state";

const wrongPasskey = () => new DomainError("otp_invalid", "The passkey was not accepted; try again");

/**
 * The step-up an endpoint with `totp` asks of an employee (an API key has no second factor): a
 * current Service-Totp-Code, or a passkey's assertion in Service-Passkey-Assertion.
 */
export async function checkTotp(state: RequestState): Promise<void> {
  const { definition, actor } = state;
  if (!definition.totp || actor?.type !== "employee") return;
  const header = state.request.headers.get("service-passkey-assertion");
  if (header === null || header.trim() === "") {
    await verifyEmployeeTotp({ employeeId: actor.id, code: state.request.headers.get("service-totp-code") });
    return;
  }
  const assertion = parsePasskeyHeader(header.trim());
  if (!assertion) throw wrongPasskey();
  await verifyPasskeyAssertion({
    employeeId: actor.id,
    assertion,
    rp: relyingPartyOf(publicOrigin(state.request)),
    purpose: "step_up",
    refusal: wrongPasskey,
    request: { ip: state.ip, requestId: state.ids.requestId },
  });
}
