import { removePasskeyEndpoint } from "@/lib/passkeys/endpoints";
import { removePasskey } from "@/lib/passkeys/passkeys";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE: remove one of the signed-in employee's passkeys (step-up).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(removePasskeyEndpoint, async ({ actor, params, audit }) => {
    audit.targetId = params.id;
    return removePasskey({ employeeId: actor.id, id: params.id });
  }),
});
