"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";
import { newPasswordForm, NewPasswordFields, type NewPasswordValues } from "@/components/new-password-fields";
import { ErrorMessage } from "@/components/ui/data-state";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { api, ApiRequestError } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { acceptInvitationEndpoint } from "@/lib/employees/endpoints";

type Accepted = ResponseOf<typeof acceptInvitationEndpoint>;

function PasswordForm({ token, onSso }: { token: string; onSso: () => void }) {
  const router = useRouter();
  const { form, onSubmit, formError } = useApiForm<NewPasswordValues, Accepted, z.output<typeof newPasswordForm>>({
    resolver: zodResolver(newPasswordForm),
    submit: ({ password }) => api(acceptInvitationEndpoint, { body: { token, password } }),
    onDone: (accepted) => {
      // Single sign-on was required after this page was shown: no password was set.
      if (accepted.signIn === "sso") return onSso();
      router.push("/security");
      router.refresh();
    },
    fields: ["password"],
  });
  const hydrated = useHydrated();
  const { register } = form;
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <NewPasswordFields label="Password" register={register} errors={errors} />
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Activating…" : "Activate account"}
      </button>
    </form>
  );
}

function SsoActivation({ token, onDone }: { token: string; onDone: () => void }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const activate = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(acceptInvitationEndpoint, { body: { token } });
      onDone();
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : "Could not activate your account. Try again.");
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <ErrorMessage error={error} />
      <button type="button" className="primary" disabled={!hydrated || busy} onClick={() => void activate()}>
        {busy ? "Activating…" : "Activate account"}
      </button>
    </div>
  );
}

/** The acceptance form for a link the page found working: a password to choose, or activation for single sign-on. */
export function AcceptInvitationForm({ token, signIn }: { token: string; signIn: "password" | "sso" }) {
  const [activatedForSso, setActivatedForSso] = useState(false);
  if (activatedForSso) {
    return (
      <div className="stack">
        <p className="alert success" role="status" style={{ margin: 0 }}>
          Your account is active. Your platform signs in through single sign-on.
        </p>
        <Link href="/login" className="button primary">
          Sign in with SSO
        </Link>
      </div>
    );
  }
  const done = () => setActivatedForSso(true);
  return signIn === "sso" ? <SsoActivation token={token} onDone={done} /> : <PasswordForm token={token} onSso={done} />;
}
