"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { CopyButton } from "@/components/ui/format";
import { api, ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { totpConfirmInput } from "@/lib/employees/schemas";
import { RecoveryCodeList } from "./recovery-code-list";

type Enrolment = { secret: string; uri: string };
type Confirmed = { twoFactorEnabled: true; recoveryCodes: string[] };

/**
 * Two-factor enrolment: scan the QR code (or type the secret), confirm a first code, keep the recovery
 * codes. `onCodesShown` tells the page while those first codes are on screen.
 */
export function TwoFactorSetup({ onCodesShown }: { onCodesShown?: (shown: boolean) => void }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodesState] = useState<string[] | null>(null);
  const setRecoveryCodes = (codes: string[] | null) => {
    setRecoveryCodesState(codes);
    onCodesShown?.(codes !== null);
  };
  const start = useMutation({
    mutationFn: () => api<Enrolment>("/v1/employees/totp", { method: "POST" }),
    onSuccess: setEnrolment,
  });
  const form = useForm<z.input<typeof totpConfirmInput>>({ resolver: zodResolver(totpConfirmInput) });
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const onConfirm = form.handleSubmit(async (values) => {
    setConfirmError(null);
    try {
      const result = await api<Confirmed>("/v1/employees/totp/confirm", { method: "POST", body: values });
      setRecoveryCodes(result.recoveryCodes);
      setEnrolment(null);
      await queryClient.invalidateQueries({ queryKey: ["me"] });
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === "err_otp_invalid") {
        form.setError("code", { type: "server", message: "That code does not match. Check that your phone's time is right and enter the current code." });
        return;
      }
      setConfirmError(applyFieldErrors(error, form.setError, ["code"]));
    }
  });

  return (
    <section className="card stack" aria-labelledby="two-factor-heading">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h2 id="two-factor-heading" style={{ margin: 0 }}>
          Two-factor authentication
        </h2>
        <span className={`badge ${me.twoFactorEnabled ? "ok" : "warn"}`} data-testid="two-factor-status">
          {me.twoFactorEnabled ? "On" : "Off"}
        </span>
      </div>

      {recoveryCodes && (
        <div className="stack" aria-labelledby="recovery-heading">
          <div className="alert success" role="status">
            Two-factor authentication is on. From now on, signing in and changing API keys need a code from your authenticator app.
          </div>
          <h3 id="recovery-heading" style={{ margin: 0 }}>
            Your recovery codes
          </h3>
          <p className="alert warn" style={{ margin: 0 }}>
            Save these now: <strong>you will not see them again.</strong> Each one signs you in once if you lose your phone.
          </p>
          <RecoveryCodeList codes={recoveryCodes} label="Recovery codes">
            <button type="button" onClick={() => setRecoveryCodes(null)}>
              I have saved them
            </button>
          </RecoveryCodeList>
        </div>
      )}

      {!me.twoFactorEnabled && !enrolment && !recoveryCodes && (
        <div className="stack">
          <p className="muted" style={{ margin: 0 }}>
            You need an authenticator app on your phone (Google Authenticator, 1Password, Authy, Microsoft Authenticator, …).
          </p>
          <ErrorMessage error={start.error} />
          <div>
            <button type="button" className="primary" onClick={() => start.mutate()} disabled={start.isPending}>
              {start.isPending ? "Preparing…" : "Set up two-factor authentication"}
            </button>
          </div>
        </div>
      )}

      {enrolment && (
        <div className="stack">
          <ol className="stack" style={{ margin: 0, paddingLeft: "1.25rem" }}>
            <li>
              Scan this QR code with your authenticator app.
              <div className="qr-frame">
                <QRCodeSVG value={enrolment.uri} size={224} level="M" marginSize={4} role="img" aria-label="QR code for your authenticator app" data-testid="totp-qr" />
              </div>
            </li>
            <li>
              Or type this key into the app by hand:
              <div className="secret-box" style={{ marginTop: "0.5rem" }}>
                <code data-testid="totp-secret">{enrolment.secret.match(/.{1,4}/g)?.join(" ")}</code>
                <CopyButton text={enrolment.secret} label="Copy key" />
              </div>
            </li>
            <li>Enter the 6-digit code the app shows to finish.</li>
          </ol>
          <form className="row" onSubmit={onConfirm} noValidate>
            <Field label="Authenticator code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} error={form.formState.errors.code} {...form.register("code")} />
            <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
              Turn on
            </button>
          </form>
          <ErrorMessage error={confirmError} />
        </div>
      )}

      {me.twoFactorEnabled && !recoveryCodes && (
        <p className="muted" style={{ margin: 0 }}>
          Two-factor authentication is on. Keep your recovery codes somewhere safe.
        </p>
      )}
    </section>
  );
}
