"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { useApiForm } from "@/components/use-api-form";
import { api, ApiRequestError } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { createDelegatedUserEndpoint, listDelegatedUsersEndpoint } from "@/lib/delegated-users/endpoints";
import { createDelegatedUserInput } from "@/lib/delegated-users/schemas";
import type { ResponseOf } from "@/lib/contract/endpoint";

/** The 409 of a duplicate externalId, said as the form's label says it. */
function inDashboardWords(error: unknown): never {
  if (error instanceof ApiRequestError && error.status === 409)
    throw new ApiRequestError(409, error.code, "A delegated user with this external id already exists.", error.details);
  throw error;
}

export type DelegatedUser = ResponseOf<typeof createDelegatedUserEndpoint>;

/** Links a user of the platform's own system (POST /v1/delegated_users); a duplicate externalId is shown under the field. */
export function CreateDelegatedUserForm() {
  const [created, setCreated] = useState<DelegatedUser | null>(null);
  const { form, onSubmit, formError } = useApiForm({
    resolver: zodResolver(createDelegatedUserInput),
    defaultValues: { externalId: "" },
    fields: ["externalId"],
    conflict: "externalId",
    beforeSubmit: () => {
      setCreated(null);
      return true;
    },
    submit: (body) => api(createDelegatedUserEndpoint, { body }).catch(inDashboardWords),
    invalidates: [queryKey(listDelegatedUsersEndpoint)],
    onDone: (user) => {
      setCreated(user);
      form.reset({ externalId: "" });
    },
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
        <SubmitButton pending={form.formState.isSubmitting} pendingLabel="Creating…">
          Create delegated user
        </SubmitButton>
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
