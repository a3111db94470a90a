import { passkeyRegistrationOptionsEndpoint } from "@/lib/passkeys/endpoints";
import { startPasskeyRegistration } from "@/lib/passkeys/passkeys";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";
import { methods, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";

export const dynamic = "force-dynamic";

// POST: registration options (a fresh challenge) for a new passkey of the signed-in employee.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(passkeyRegistrationOptionsEndpoint, async ({ actor, request }) =>
    startPasskeyRegistration({ employeeId: actor.id, rp: relyingPartyOf(publicOrigin(request)) }),
  ),
});
