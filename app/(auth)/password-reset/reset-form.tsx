"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import type { z } from "zod";
import { newPasswordForm, NewPasswordFields, type NewPasswordValues } from "@/components/new-password-fields";
import { ErrorMessage } from "@/components/ui/data-state";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { api } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { acceptPasswordResetEndpoint } from "@/lib/employees/endpoints";

type Accepted = ResponseOf<typeof acceptPasswordResetEndpoint>;

function Form({ token, onDone }: { token: string; onDone: (accepted: Accepted) => void }) {
  const { form, onSubmit, formError } = useApiForm<NewPasswordValues, Accepted, z.output<typeof newPasswordForm>>({
    resolver: zodResolver(newPasswordForm),
    submit: ({ password }) => api(acceptPasswordResetEndpoint, { body: { token, password } }),
    onDone,
    fields: ["password"],
  });
  const hydrated = useHydrated();
  const { register } = form;
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <NewPasswordFields label="New password" register={register} errors={errors} />
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Saving…" : "Set password"}
      </button>
    </form>
  );
}

function Reset() {
  const token = useSearchParams().get("token") ?? "";
  const [done, setDone] = useState<Accepted | null>(null);
  if (!token)
    return <ErrorMessage error="This password reset link is incomplete. Ask your administrator for a new one." />;
  if (done) {
    return (
      <div className="stack">
        <p className="alert success" role="status" style={{ margin: 0 }}>
          Your new password is set, and you were signed out everywhere.
          {done.signIn === "sso" && " Your platform signs in through single sign-on: use your work account."}
        </p>
        <Link href="/login" className="button primary">
          {done.signIn === "sso" ? "Sign in with SSO" : "Sign in"}
        </Link>
      </div>
    );
  }
  return <Form token={token} onDone={setDone} />;
}

export function PasswordResetForm() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <Reset />
    </Suspense>
  );
}
