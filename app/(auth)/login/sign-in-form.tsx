"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { FieldError, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { homeFor } from "@/components/nav-links";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { PasskeySignInButton } from "@/components/passkeys/passkey-sign-in-button";
import { api, ApiRequestError } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { signInEndpoint } from "@/lib/employees/endpoints";
import { signInInput } from "@/lib/employees/schemas";

type Input = z.input<typeof signInInput>;
type Output = z.output<typeof signInInput>;

type Session = ResponseOf<typeof signInEndpoint>;

/** The sign-in request: the password step first, the code step once the API asks for a second factor. */
function useSignIn(returnTo: string | null) {
  const router = useRouter();
  const [step, setStep] = useState<"password" | "code">("password");
  const [useRecovery, setUseRecovery] = useState(false);
  const signedIn = (session: Session) => {
    router.push(returnTo ?? homeFor(session.permissions));
    router.refresh();
  };
  const apiForm = useApiForm<Input, Session, Output>({
    resolver: zodResolver(signInInput),
    submit: (values) =>
      api(signInEndpoint, { body: step === "code" ? values : { email: values.email, password: values.password } }),
    onRefusal: (error, { resetField, setError }) => {
      if (error instanceof ApiRequestError && error.code === "err_otp_required" && step === "password") {
        setStep("code");
        return true;
      }
      if (error instanceof ApiRequestError && error.code === "err_otp_invalid") {
        resetField("totpCode");
        setError("totpCode", {
          type: "server",
          message: useRecovery
            ? "That recovery code is wrong or was already used."
            : "That code is wrong or was already used. Wait for the next one and try again.",
        });
        return true;
      }
      return false;
    },
    onDone: signedIn,
    fields: ["email", "password", "totpCode"],
  });
  return { apiForm, step, useRecovery, setUseRecovery, signedIn };
}

/** The second step: an authenticator code or a recovery code, or a passkey instead. */
function SecondFactorFields({
  form,
  error,
  useRecovery,
  setUseRecovery,
  onSignedIn,
}: {
  form: UseFormReturn<Input, unknown, Output>;
  error: FieldError | undefined;
  useRecovery: boolean;
  setUseRecovery: (useRecovery: boolean) => void;
  onSignedIn: (session: Session) => void;
}) {
  const { register, resetField } = form;
  return (
    <>
      <p className="muted">Two-factor authentication is on for this account.</p>
      {useRecovery ? (
        <Field
          label="Recovery code"
          autoComplete="off"
          autoFocus
          hint="One of the codes you saved when you set up two-factor authentication. Each works once."
          error={error}
          {...register("totpCode")}
        />
      ) : (
        <Field
          label="Authenticator code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={6}
          hint="The 6-digit code from your authenticator app."
          error={error}
          {...register("totpCode")}
        />
      )}
      <button
        type="button"
        className="link"
        onClick={() => {
          setUseRecovery(!useRecovery);
          resetField("totpCode");
        }}
      >
        {useRecovery ? "Use an authenticator code instead" : "Use a recovery code instead"}
      </button>
      <PasskeySignInButton credentials={() => form.getValues()} onSignedIn={onSignedIn} />
    </>
  );
}

/**
 * E-mail and password; once the API says a second factor is needed, the code (or a recovery code).
 * Signed in, to `returnTo` (already checked to be a path of this site) or else the employee's home.
 */
export function SignInForm({ returnTo }: { returnTo: string | null }) {
  const { apiForm, step, useRecovery, setUseRecovery, signedIn } = useSignIn(returnTo);
  const { form, onSubmit, formError } = apiForm;
  const hydrated = useHydrated();
  const { register } = form;
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <div hidden={step === "code"} className="stack">
        <Field label="E-mail" type="email" autoComplete="username" error={errors.email} {...register("email")} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
          {...register("password")}
        />
      </div>
      {step === "code" && (
        <SecondFactorFields
          form={form}
          error={errors.totpCode}
          useRecovery={useRecovery}
          setUseRecovery={setUseRecovery}
          onSignedIn={signedIn}
        />
      )}
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Signing in…" : step === "code" ? "Verify and sign in" : "Sign in"}
      </button>
    </form>
  );
}
