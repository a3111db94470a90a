import { stepUpPasskeyOptionsEndpoint } from "@/lib/passkeys/endpoints";
import { startPasskeyStepUp } from "@/lib/passkeys/assertions";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";
import { methods, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";

export const dynamic = "force-dynamic";

// POST: authentication options (a fresh challenge) for a step-up with one of the employee's passkeys.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(stepUpPasskeyOptionsEndpoint, async ({ actor, request }) =>
    startPasskeyStepUp({ employeeId: actor.id, rp: relyingPartyOf(publicOrigin(request)) }),
  ),
});
