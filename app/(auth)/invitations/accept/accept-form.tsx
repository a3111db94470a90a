"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { api } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { acceptInvitationEndpoint } from "@/lib/employees/endpoints";
import { newPasswordSchema } from "@/lib/employees/schemas";

const schema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, {
    path: ["confirm"],
    message: "does not match the password",
  });

function Form() {
  const router = useRouter();
  const token = useSearchParams().get("token") ?? "";
  const { form, onSubmit, formError } = useApiForm<
    z.input<typeof schema>,
    ResponseOf<typeof acceptInvitationEndpoint>,
    z.output<typeof schema>
  >({
    resolver: zodResolver(schema),
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
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters, and not one of the most common passwords."
        error={errors.password}
        {...register("password")}
      />
      <Field
        label="Repeat password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        {...register("confirm")}
      />
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
