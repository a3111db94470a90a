"use client";

import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { api, ApiRequestError } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { signInEndpoint } from "@/lib/employees/endpoints";
import { signInPasskeyOptionsEndpoint } from "@/lib/passkeys/endpoints";

type Session = ResponseOf<typeof signInEndpoint>;

/**
 * Sign-in's second step with a passkey: the e-mail and password already typed (a passkey never
 * replaces the password), then the browser's assertion for a fresh challenge, all sent to POST /v1/sessions.
 */
export function PasskeySignInButton({
  credentials,
  onSignedIn,
}: {
  /** The e-mail and password of the first step. */
  credentials: () => { email: string; password: string };
  onSignedIn: (session: Session) => void | Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const { email, password } = credentials();
      // The API's schema names hints and transports as plain strings; the browser library names each one.
      const optionsJSON = (await api(signInPasskeyOptionsEndpoint, {
        body: { email },
      })) as PublicKeyCredentialRequestOptionsJSON;
      const passkey = await startAuthentication({ optionsJSON });
      await onSignedIn(await api(signInEndpoint, { body: { email, password, passkey } }));
    } catch (failure) {
      setError(
        failure instanceof ApiRequestError
          ? failure.message
          : `The passkey did not answer${failure instanceof Error ? `: ${failure.message}` : ""}`,
      );
      setBusy(false);
    }
  };
  return (
    <div className="stack" style={{ gap: "0.5rem" }}>
      <ErrorMessage error={error} />
      <button type="button" onClick={() => void signIn()} disabled={busy}>
        {busy ? "Waiting for your passkey…" : "Use a passkey"}
      </button>
    </div>
  );
}
