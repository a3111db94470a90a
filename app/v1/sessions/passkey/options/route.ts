import { signInPasskeyOptionsEndpoint } from "@/lib/passkeys/endpoints";
import { startPasskeySignIn } from "@/lib/passkeys/assertions";
import { relyingPartyOf } from "@/lib/passkeys/relying-party";
import { methods, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";

export const dynamic = "force-dynamic";

// POST: authentication options (a fresh challenge) for a passkey as the second factor of a sign-in.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(signInPasskeyOptionsEndpoint, async ({ body, request, ip }) =>
    startPasskeySignIn({ email: body.email, rp: relyingPartyOf(publicOrigin(request)), ip }),
  ),
});
