"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { ssoStartQuery } from "@/lib/sso/schemas";

const startForm = z.object({
  email: ssoStartQuery.shape.email.unwrap().pipe(z.email("Enter your work e-mail address")),
});
type StartInput = z.input<typeof startForm>;

/**
 * "Sign in with SSO": the browser goes to GET /v1/sso/start, which sends it on to the provider. A
 * navigation rather than a form submission, because the page's CSP (`form-action 'self'`) would stop
 * a submitted form from being redirected to the provider's origin.
 */
export function SsoStartForm({ returnTo }: { returnTo: string | null }) {
  const form = useForm<StartInput>({ resolver: zodResolver(startForm), defaultValues: { email: "" } });
  const { errors, isSubmitting, isSubmitSuccessful } = form.formState;
  const onSubmit = form.handleSubmit(({ email }) => {
    const query = new URLSearchParams({ email, ...(returnTo && { next: returnTo }) });
    window.location.assign(`/v1/sso/start?${query}`);
  });
  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Single sign-on">
      <Field
        label="Work e-mail"
        type="email"
        autoComplete="username"
        error={errors.email}
        {...form.register("email")}
      />
      <button type="submit" className="primary" disabled={isSubmitting || isSubmitSuccessful}>
        {isSubmitSuccessful ? "Going to your provider…" : "Sign in with SSO"}
      </button>
    </form>
  );
}
