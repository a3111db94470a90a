"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, applyFieldErrors } from "@/lib/client/api";
import { newPasswordSchema } from "@/lib/employees/schemas";
import { useHydrated } from "@/components/use-hydrated";

const schema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, { path: ["confirm"], message: "does not match the password" });

function Form() {
  const router = useRouter();
  const token = useSearchParams().get("token") ?? "";
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<z.input<typeof schema>>({ resolver: zodResolver(schema) });
  const hydrated = useHydrated();
  if (!token) return <ErrorMessage error="This invitation link is incomplete. Ask the person who invited you for a new one." />;
  const onSubmit = handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      await api("/v1/employees/invitations/accept", { method: "POST", body: { token, password } });
      router.push("/security");
      router.refresh();
    } catch (error) {
      setFormError(applyFieldErrors(error, setError, ["password"]));
    }
  });
  const { errors, isSubmitting } = formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <Field label="Password" type="password" autoComplete="new-password" hint="At least 12 characters." error={errors.password} {...register("password")} />
      <Field label="Repeat password" type="password" autoComplete="new-password" error={errors.confirm} {...register("confirm")} />
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
