"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { z } from "zod";
import { useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { Notice } from "@/components/ui/use-page-dialogs";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { changePasswordEndpoint, listOwnSessionsEndpoint } from "@/lib/employees/endpoints";
import { changePasswordInput } from "@/lib/employees/schemas";
import type { ResponseOf } from "@/lib/contract/endpoint";

// The API's own schema, plus the second typing of the new password that only the form asks for.
const changePasswordForm = changePasswordInput
  .extend({ repeatPassword: z.string().min(1, "is required") })
  .refine((values) => values.newPassword === values.repeatPassword, {
    path: ["repeatPassword"],
    message: "does not match the new password",
  });

type Values = z.input<typeof changePasswordForm>;
type PasswordChanged = ResponseOf<typeof changePasswordEndpoint>;

const signedOutSentence = (count: number) =>
  count === 0
    ? "You were not signed in anywhere else."
    : count === 1
      ? "1 other session was signed out."
      : `${count} other sessions were signed out.`;

/** Changes the signed-in employee's password (POST /v1/employees/me/password); every other session ends. */
export function ChangePasswordForm() {
  const me = useMe();
  const { form, onSubmit, formError, done } = useChangePasswordForm();
  const { errors, isSubmitting } = form.formState;
  return (
    <section className="card stack" aria-labelledby="password-heading">
      <div className="stack" style={{ gap: "0.25rem" }}>
        <h2 id="password-heading" style={{ margin: 0 }}>
          Password
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          Changing it signs you out everywhere else; this browser stays signed in.
        </p>
      </div>
      <form className="stack narrow-form" onSubmit={onSubmit} noValidate aria-label="Change password">
        {/* Lets password managers file the new password under the right e-mail. */}
        <input type="email" name="username" autoComplete="username" value={me.email} readOnly hidden />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
          {...form.register("currentPassword")}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters, and not one of the most common passwords. A few unrelated words are easy to remember and hard to guess.`}
          error={errors.newPassword}
          {...form.register("newPassword")}
        />
        <Field
          label="Repeat new password"
          type="password"
          autoComplete="new-password"
          error={errors.repeatPassword}
          {...form.register("repeatPassword")}
        />
        <ErrorMessage error={formError} />
        <div>
          <button type="submit" className="primary" disabled={isSubmitting}>
            {isSubmitting ? "Changing…" : "Change password"}
          </button>
        </div>
      </form>
      <Notice>{done}</Notice>
    </section>
  );
}

/** The form, and what the last change did (a sentence for the notice under it). */
function useChangePasswordForm() {
  const [done, setDone] = useState<string | null>(null);
  const apiForm = useApiForm<Values, PasswordChanged>({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { currentPassword: "", newPassword: "", repeatPassword: "" },
    beforeSubmit: () => {
      setDone(null);
      return true;
    },
    submit: ({ currentPassword, newPassword }) =>
      api(changePasswordEndpoint, { body: { currentPassword, newPassword } }),
    invalidates: [queryKey(listOwnSessionsEndpoint)],
    onDone: (result) => {
      apiForm.form.reset();
      setDone(`Password changed. ${signedOutSentence(result.endedSessions)}`);
    },
    fields: ["currentPassword", "newPassword"],
  });
  return { ...apiForm, done };
}
