"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense } from "react";
import type { z } from "zod";
import { newPasswordForm, NewPasswordFields, type NewPasswordValues } from "@/components/new-password-fields";
import { ErrorMessage } from "@/components/ui/data-state";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { api } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { acceptInvitationEndpoint } from "@/lib/employees/endpoints";

function Form() {
  const router = useRouter();
  const token = useSearchParams().get("token") ?? "";
  const { form, onSubmit, formError } = useApiForm<
    NewPasswordValues,
    ResponseOf<typeof acceptInvitationEndpoint>,
    z.output<typeof newPasswordForm>
  >({
    resolver: zodResolver(newPasswordForm),
    submit: ({ password }) => api(acceptInvitationEndpoint, { body: { token, password } }),
    onDone: () => {
      router.push("/security");
      router.refresh();
    },
    fields: ["password"],
  });
  const hydrated = useHydrated();
  if (!token)
    return <ErrorMessage error="This invitation link is incomplete. Ask the person who invited you for a new one." />;
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

export function AcceptInvitationForm() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <Form />
    </Suspense>
  );
}
