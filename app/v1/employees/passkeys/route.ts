import { listPasskeysEndpoint, registerPasskeyEndpoint } from "@/lib/passkeys/endpoints";
import { listPasskeys, registerPasskey } from "@/lib/passkeys/passkeys";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";
import { methods, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";

export const dynamic = "force-dynamic";

// GET: the signed-in employee's passkeys. POST: register the passkey a browser made for an options challenge.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listPasskeysEndpoint, async ({ actor }) => listPasskeys({ employeeId: actor.id })),
  POST: route(registerPasskeyEndpoint, async ({ actor, body, request, commit, audit }) => {
    const passkey = await registerPasskey({
      employeeId: actor.id,
      name: body.name,
      response: body.response,
      rp: relyingPartyOf(publicOrigin(request)),
      commit,
    });
    audit.targetId = passkey.id;
    return passkey;
  }),
});
