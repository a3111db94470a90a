import { decodeClientDataJSON } from "@simplewebauthn/server/helpers";

/**
 * Who the passkeys belong to: the origin browsers see (APP_ORIGIN, else the origin the service was
 * reached at; lib/http/public-origin.ts) and its host name as the RP ID. A passkey works only at
 * the RP ID it was made for, so APP_ORIGIN must be the address people use behind a proxy.
 */
export type RelyingParty = { origin: string; rpId: string };

export const relyingPartyOf = (origin: string): RelyingParty => ({ origin, rpId: new URL(origin).hostname });

/** The challenge a browser's answer says it signed, or null when its clientDataJSON cannot be read. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === "string" && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}
