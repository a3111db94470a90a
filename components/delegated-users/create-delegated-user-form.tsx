"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { createDelegatedUserInput, type delegatedUserSchema } from "@/lib/delegated-users/schemas";

export type DelegatedUser = z.output<typeof delegatedUserSchema>;

/** Links a user of the platform's own system (POST /v1/delegated_users); a duplicate externalId is shown under the field. */
export function CreateDelegatedUserForm() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<DelegatedUser | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof createDelegatedUserInput>, unknown, z.output<typeof createDelegatedUserInput>>({
    resolver: zodResolver(createDelegatedUserInput),
    defaultValues: { externalId: "" },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setCreated(null);
    setFormError(null);
    try {
      const user = await api<DelegatedUser>("/v1/delegated_users", { method: "POST", body: values });
      setCreated(user);
      form.reset({ externalId: "" });
      await queryClient.invalidateQueries({ queryKey: ["/v1/delegated_users"] });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 409) {
        form.setError("externalId", { type: "server", message: "A delegated user with this external id already exists." });
        return;
      }
      setFormError(applyFieldErrors(error, form.setError, ["externalId"]));
    }
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="create-delegated-user-heading">
      <h2 id="create-delegated-user-heading" style={{ margin: 0 }}>
        New delegated user
      </h2>
      <div className="row">
        <Field
          label="External id"
          hint="Your own system's identifier for the user; unique in this account."
          autoComplete="off"
          error={form.formState.errors.externalId}
          {...form.register("externalId")}
        />
        <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Creating…" : "Create delegated user"}
        </button>
      </div>
      {created && (
        <div className="alert success" role="status">
          Delegated user <strong>{created.externalId}</strong> created as <code>{created.id}</code>.
        </div>
      )}
      <ErrorMessage error={formError} />
    </form>
  );
}
