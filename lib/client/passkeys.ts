"use client";

import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";

// The dashboard's side of passkey step-up. A step-up dialog's form validates its code field like
// any other; its passkey button puts this stand-in there and arms the assertion, which send()
// (lib/client/api.ts) then sends as Service-Passkey-Assertion in place of the stand-in code.

/** What the code field holds while a passkey stands in for it: well-formed, so the form's schema passes it. */
export const PASSKEY_STAND_IN_CODE = "000000";

let armed: string | null = null;

/** An assertion as the Service-Passkey-Assertion header carries it: base64url of its JSON. */
export function passkeyHeader(assertion: AuthenticationResponseJSON): string {
  const bytes = new TextEncoder().encode(JSON.stringify(assertion));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Arms an assertion for the next call whose code is the stand-in. */
export function armPasskey(header: string | null) {
  armed = header;
}

/** The armed assertion, once, when `totpCode` is the stand-in; a code typed by hand is sent as it is. */
export function takeArmedPasskey(totpCode: string | undefined): string | null {
  if (totpCode?.trim() !== PASSKEY_STAND_IN_CODE || armed === null) return null;
  const header = armed;
  armed = null;
  return header;
}
