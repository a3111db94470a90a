"use client";

import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import type { FieldValues, Path, PathValue } from "react-hook-form";
import type { ApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { armPasskey, passkeyHeader, PASSKEY_STAND_IN_CODE } from "@/lib/client/passkeys";
import { useApiQuery } from "@/lib/client/queries";
import { listPasskeysEndpoint, stepUpPasskeyOptionsEndpoint } from "@/lib/passkeys/endpoints";

/**
 * "Use a passkey" beside a step-up dialog's code field, for an employee who has one: asks the
 * browser for an assertion, then submits the dialog's form with it in place of a code.
 */
export function PasskeyStepUpButton<I extends FieldValues & { code: string }, O>({
  apiForm: { form, submitNow, setFormError },
  disabled,
}: {
  apiForm: ApiForm<I, O>;
  disabled: boolean;
}) {
  const passkeys = useApiQuery(listPasskeysEndpoint);
  const [busy, setBusy] = useState(false);
  if (!passkeys.data?.length) return null;
  const code = "code" as Path<I>;
  const stepUpWithPasskey = async () => {
    setBusy(true);
    setFormError(null);
    form.clearErrors(code);
    try {
      // The API's schema names hints and transports as plain strings; the browser library names each one.
      const optionsJSON = (await api(stepUpPasskeyOptionsEndpoint)) as PublicKeyCredentialRequestOptionsJSON;
      armPasskey(passkeyHeader(await startAuthentication({ optionsJSON })));
      form.setValue(code, PASSKEY_STAND_IN_CODE as PathValue<I, Path<I>>);
      await submitNow();
    } catch (error) {
      setFormError(
        error instanceof Error ? `The passkey did not answer: ${error.message}` : "The passkey did not answer",
      );
    } finally {
      armPasskey(null);
      if (form.getValues(code) === PASSKEY_STAND_IN_CODE) form.setValue(code, "" as PathValue<I, Path<I>>);
      setBusy(false);
    }
  };
  return (
    <button type="button" onClick={() => void stepUpWithPasskey()} disabled={disabled || busy}>
      {busy ? "Waiting for your passkey…" : "Use a passkey instead"}
    </button>
  );
}
