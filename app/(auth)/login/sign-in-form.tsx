"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { SessionBody } from "@/components/me-shape";
import { homeFor } from "@/components/nav-links";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { signInInput } from "@/lib/employees/schemas";
import { useHydrated } from "@/components/use-hydrated";

type Values = z.input<typeof signInInput>;

/** E-mail and password; once the API says a second factor is needed, the code (or a recovery code). */
export function SignInForm() {
  const router = useRouter();
  const [step, setStep] = useState<"password" | "code">("password");
  const [useRecovery, setUseRecovery] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState, resetField } = useForm<Values>({ resolver: zodResolver(signInInput) });
  const hydrated = useHydrated();
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const session = await api<SessionBody>("/v1/sessions", { method: "POST", body: step === "code" ? values : { email: values.email, password: values.password } });
      router.push(homeFor(session.permissions));
      router.refresh();
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === "err_otp_required" && step === "password") {
        setStep("code");
        return;
      }
      if (error instanceof ApiRequestError && error.code === "err_otp_invalid") {
        resetField("totpCode");
        setError("totpCode", { type: "server", message: useRecovery ? "That recovery code is wrong or was already used." : "That code is wrong or was already used. Wait for the next one and try again." });
        return;
      }
      setFormError(applyFieldErrors(error, setError, ["email", "password", "totpCode"]));
    }
  });
  const { errors, isSubmitting } = formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <div hidden={step === "code"} className="stack">
        <Field label="E-mail" type="email" autoComplete="username" error={errors.email} {...register("email")} />
        <Field label="Password" type="password" autoComplete="current-password" error={errors.password} {...register("password")} />
      </div>
      {step === "code" && (
        <>
          <p className="muted">Two-factor authentication is on for this account.</p>
          {useRecovery ? (
            <Field label="Recovery code" autoComplete="off" autoFocus hint="One of the codes you saved when you set up two-factor authentication. Each works once." error={errors.totpCode} {...register("totpCode")} />
          ) : (
            <Field label="Authenticator code" inputMode="numeric" autoComplete="one-time-code" autoFocus maxLength={6} hint="The 6-digit code from your authenticator app." error={errors.totpCode} {...register("totpCode")} />
          )}
          <button type="button" className="link" onClick={() => { setUseRecovery(!useRecovery); resetField("totpCode"); }}>
            {useRecovery ? "Use an authenticator code instead" : "Use a recovery code instead"}
          </button>
        </>
      )}
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Signing in…" : step === "code" ? "Verify and sign in" : "Sign in"}
      </button>
    </form>
  );
}
