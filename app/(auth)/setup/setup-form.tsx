"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { setupInput } from "@/lib/employees/schemas";
import { useHydrated } from "@/components/use-hydrated";

type Values = z.input<typeof setupInput>;

const WRONG_LINK = "The setup token in this link is wrong or out of date. Copy the link from the server's log again, or paste the token here.";
const WRONG_TOKEN = "This setup token is wrong. Copy it again from the server's log, or use the SETUP_TOKEN the service was started with.";

/**
 * The setup token comes from the link the server printed (`?token=`, then the field stays hidden)
 * or is typed in. A refused token from a link shows the field, so the right one can be pasted.
 */
export function SetupForm({ linkToken }: { linkToken?: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [fromLink, setFromLink] = useState(Boolean(linkToken));
  const { register, handleSubmit, setError, setValue, formState } = useForm<Values>({
    resolver: zodResolver(setupInput),
    defaultValues: { setupToken: linkToken ?? "" },
  });
  const hydrated = useHydrated();
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await api("/v1/setup", { method: "POST", body: values });
      router.push("/security");
      router.refresh();
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 403 && error.details.setupToken) {
        if (fromLink) {
          setFromLink(false);
          setValue("setupToken", "");
        }
        setError("setupToken", { type: "server", message: fromLink ? WRONG_LINK : WRONG_TOKEN }, { shouldFocus: !fromLink });
        return;
      }
      setFormError(applyFieldErrors(error, setError, ["setupToken", "accountName", "name", "email", "password"]));
    }
  });
  const { errors, isSubmitting } = formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      {fromLink ? (
        <>
          <div className="alert info" data-testid="setup-token-from-link">
            Setup token: taken from your setup link.
          </div>
          <input type="hidden" {...register("setupToken")} />
        </>
      ) : (
        <Field
          label="Setup token"
          autoComplete="off"
          spellCheck={false}
          hint="Printed in the server's log at start, with a ready-made setup link; or the SETUP_TOKEN the service was started with."
          error={errors.setupToken}
          {...register("setupToken")}
        />
      )}
      <Field label="Platform name" autoComplete="organization" error={errors.accountName} {...register("accountName")} />
      <Field label="Your name" autoComplete="name" error={errors.name} {...register("name")} />
      <Field label="E-mail" type="email" autoComplete="email" error={errors.email} {...register("email")} />
      <Field label="Password" type="password" autoComplete="new-password" hint="At least 12 characters." error={errors.password} {...register("password")} />
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Creating…" : "Create platform"}
      </button>
    </form>
  );
}
