"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { useHydrated } from "@/components/use-hydrated";
import { api, ApiRequestError } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { setupEndpoint } from "@/lib/employees/endpoints";
import { setupInput } from "@/lib/employees/schemas";

type Input = z.input<typeof setupInput>;
type Output = z.output<typeof setupInput>;

const WRONG_LINK =
  "The setup token in this link is wrong or out of date. Copy the link from the server's log again, or paste the token here.";
const WRONG_TOKEN =
  "This setup token is wrong. Copy it again from the server's log, or use the SETUP_TOKEN the service was started with.";

/** The setup request; a refused token from the link turns the hidden token into a field to paste it in. */
function useSetupForm(linkToken: string | undefined) {
  const router = useRouter();
  const [fromLink, setFromLink] = useState(Boolean(linkToken));
  const apiForm = useApiForm<Input, ResponseOf<typeof setupEndpoint>, Output>({
    resolver: zodResolver(setupInput),
    defaultValues: { setupToken: linkToken ?? "" },
    submit: (body) => api(setupEndpoint, { body }),
    onRefusal: (error, { setError, setValue }) => {
      if (!(error instanceof ApiRequestError && error.status === 403 && error.details.setupToken)) return false;
      if (fromLink) {
        setFromLink(false);
        setValue("setupToken", "");
      }
      setError(
        "setupToken",
        { type: "server", message: fromLink ? WRONG_LINK : WRONG_TOKEN },
        { shouldFocus: !fromLink },
      );
      return true;
    },
    onDone: () => {
      router.push("/security");
      router.refresh();
    },
    fields: ["setupToken", "accountName", "name", "email", "password"],
  });
  return { ...apiForm, fromLink };
}

/**
 * The setup token comes from the link the server printed (`?token=`, then the field stays hidden)
 * or is typed in. A refused token from a link shows the field, so the right one can be pasted.
 */
export function SetupForm({ linkToken }: { linkToken?: string }) {
  const { form, onSubmit, formError, fromLink } = useSetupForm(linkToken);
  const hydrated = useHydrated();
  const { register } = form;
  const { errors, isSubmitting } = form.formState;
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
      <Field
        label="Platform name"
        autoComplete="organization"
        error={errors.accountName}
        {...register("accountName")}
      />
      <Field label="Your name" autoComplete="name" error={errors.name} {...register("name")} />
      <Field label="E-mail" type="email" autoComplete="email" error={errors.email} {...register("email")} />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters, and not one of the most common passwords."
        error={errors.password}
        {...register("password")}
      />
      <button type="submit" className="primary" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? "Creating…" : "Create platform"}
      </button>
    </form>
  );
}
