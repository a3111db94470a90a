"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import type { z } from "zod";
import { useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { CopyButton } from "@/components/ui/format";
import { useApiForm, type ApiForm } from "@/components/use-api-form";
import { Notice } from "@/components/ui/use-page-dialogs";
import { api, ApiRequestError } from "@/lib/client/api";
import { useInvalidate } from "@/lib/client/queries";
import { confirmTotpEndpoint, currentSessionEndpoint, startTotpEndpoint } from "@/lib/employees/endpoints";
import { totpConfirmInput, totpStartInput } from "@/lib/employees/schemas";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { RecoveryCodeList } from "./recovery-code-list";

type Enrolment = ResponseOf<typeof startTotpEndpoint>;
type StartForm = ApiForm<z.input<typeof totpStartInput>, z.output<typeof totpStartInput>>;
type ConfirmForm = ApiForm<z.input<typeof totpConfirmInput>, z.output<typeof totpConfirmInput>>;

/**
 * Two-factor enrolment: the current password first (a stolen session alone cannot enrol), then scan
 * the QR code (or type the secret), confirm a first code, keep the recovery codes. `onCodesShown`
 * tells the page while those first codes are on screen.
 */
export function TwoFactorSetup({ onCodesShown }: { onCodesShown?: (shown: boolean) => void }) {
  const me = useMe();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodesState] = useState<string[] | null>(null);
  const setRecoveryCodes = (codes: string[] | null) => {
    setRecoveryCodesState(codes);
    onCodesShown?.(codes !== null);
  };
  const startForm = useStartForm(setEnrolment);
  const confirmForm = useConfirmForm((codes) => {
    setRecoveryCodes(codes);
    setEnrolment(null);
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

      {recoveryCodes && <NewRecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(null)} />}

      {!me.twoFactorEnabled && !enrolment && !recoveryCodes && <StartEnrolment email={me.email} apiForm={startForm} />}

      {enrolment && <ConfirmEnrolment enrolment={enrolment} apiForm={confirmForm} />}

      {me.twoFactorEnabled && !recoveryCodes && (
        <p className="muted" style={{ margin: 0 }}>
          Two-factor authentication is on. Keep your recovery codes somewhere safe.
        </p>
      )}
    </section>
  );
}

function useStartForm(onStarted: (enrolment: Enrolment) => void): StartForm {
  const apiForm = useApiForm<z.input<typeof totpStartInput>, Enrolment, z.output<typeof totpStartInput>>({
    resolver: zodResolver(totpStartInput),
    defaultValues: { password: "" },
    submit: (body) => api(startTotpEndpoint, { body }),
    onDone: (result) => {
      apiForm.form.reset();
      onStarted(result);
    },
    // A wrong password answers 403 with `details.password`: shown under the field.
    fields: ["password"],
  });
  return apiForm;
}

function useConfirmForm(onConfirmed: (recoveryCodes: string[]) => void): ConfirmForm {
  const invalidate = useInvalidate();
  return useApiForm<
    z.input<typeof totpConfirmInput>,
    ResponseOf<typeof confirmTotpEndpoint>,
    z.output<typeof totpConfirmInput>
  >({
    resolver: zodResolver(totpConfirmInput),
    submit: (body) => api(confirmTotpEndpoint, { body }),
    onRefusal: (error, { setError }) => {
      if (!(error instanceof ApiRequestError && error.code === "err_otp_invalid")) return false;
      setError("code", {
        type: "server",
        message: "That code does not match. Check that your phone's time is right and enter the current code.",
      });
      return true;
    },
    // The codes first, then the session (2FA now on): the page never shows "on" without them.
    onDone: async (result) => {
      onConfirmed(result.recoveryCodes);
      await invalidate(currentSessionEndpoint);
    },
    fields: ["code"],
  });
}

function NewRecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <div className="stack" aria-labelledby="recovery-heading">
      <Notice>
        Two-factor authentication is on. From now on, signing in and changing API keys need a code from your
        authenticator app.
      </Notice>
      <h3 id="recovery-heading" style={{ margin: 0 }}>
        Your recovery codes
      </h3>
      <p className="alert warn" style={{ margin: 0 }}>
        Save these now: <strong>you will not see them again.</strong> Each one signs you in once if you lose your phone.
      </p>
      <RecoveryCodeList codes={codes} label="Recovery codes">
        <button type="button" onClick={onSaved}>
          I have saved them
        </button>
      </RecoveryCodeList>
    </div>
  );
}

function StartEnrolment({ email, apiForm }: { email: string; apiForm: StartForm }) {
  const { form, onSubmit, formError } = apiForm;
  return (
    <div className="stack">
      <p className="muted" style={{ margin: 0 }}>
        You need an authenticator app on your phone (Google Authenticator, 1Password, Authy, Microsoft Authenticator,
        …). First confirm it is you: enter your current password.
      </p>
      <form className="stack narrow-form" onSubmit={onSubmit} noValidate aria-label="Set up two-factor authentication">
        {/* Lets password managers fill in the password of the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={form.formState.errors.password}
          {...form.register("password")}
        />
        <ErrorMessage error={formError} />
        <div>
          <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Preparing…" : "Set up two-factor authentication"}
          </button>
        </div>
      </form>
    </div>
  );
}

function ConfirmEnrolment({ enrolment, apiForm }: { enrolment: Enrolment; apiForm: ConfirmForm }) {
  const { form, onSubmit, formError } = apiForm;
  return (
    <div className="stack">
      <ol className="stack" style={{ margin: 0, paddingLeft: "1.25rem" }}>
        <li>
          Scan this QR code with your authenticator app.
          <div className="qr-frame">
            <QRCodeSVG
              value={enrolment.uri}
              size={224}
              level="M"
              marginSize={4}
              role="img"
              aria-label="QR code for your authenticator app"
              data-testid="totp-qr"
            />
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
      <form className="row" onSubmit={onSubmit} noValidate>
        <Field
          label="Authenticator code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={form.formState.errors.code}
          {...form.register("code")}
        />
        <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
          Turn on
        </button>
      </form>
      <ErrorMessage error={formError} />
    </div>
  );
}
