"use client";

import { useCan } from "@/components/me";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FlagSelect } from "@/components/accounts/flag-select";
import { api, applyFieldErrors } from "@/lib/client/api";
import { featureFlagNames, updateAccountInput, type accountSchema } from "@/lib/accounts/schemas";

export type Account = z.output<typeof accountSchema>;

type FormInput = z.input<typeof updateAccountInput>;
type FormOutput = z.output<typeof updateAccountInput>;

const FIELDS = featureFlagNames.map((name) => `featureFlags.${name}`);
// "not set" in a select means "leave it as it is": the API merges the flags it is given.
const unsetAsMissing = (value: string) => (value === "" ? undefined : value);

/** An account's feature flags, edited in place (POST /v1/accounts/{accountId}); errors sit under the flag they name. */
export function AccountFlagsForm({ account }: { account: Account }) {
  const readOnly = !useCan()("feature_flags:write");
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(updateAccountInput),
    // Follows the stored flags when they change under the form (a refetch), keeping what the user is editing.
    values: { featureFlags: { ...account.featureFlags } },
    resetOptions: { keepDirtyValues: true },
  });
  const errors = form.formState.errors.featureFlags as Record<string, { message?: string } | undefined> | undefined;

  const onSubmit = form.handleSubmit(async (values) => {
    setSaved(false);
    setFormError(null);
    try {
      const updated = await api<Account>(`/v1/accounts/${account.id}`, { method: "POST", body: values });
      form.reset({ featureFlags: { ...updated.featureFlags } });
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: ["/v1/accounts/paginate"] });
      await queryClient.invalidateQueries({ queryKey: ["/v1/feature_flags"] });
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, FIELDS));
    }
  });

  return (
    <form className="row nowrap" style={{ alignItems: "flex-start" }} onSubmit={onSubmit} noValidate aria-label={`Feature flags of ${account.name}`}>
      <fieldset className="plain row nowrap" style={{ alignItems: "flex-start" }} disabled={readOnly}>
        {featureFlagNames.map((name) => (
          <FlagSelect
            key={name}
            label={name}
            unset={account.featureFlags[name] === undefined}
            registration={form.register(`featureFlags.${name}`, { setValueAs: unsetAsMissing, onChange: () => setSaved(false) })}
            error={errors?.[name]?.message}
          />
        ))}
      </fieldset>
      {/* Level with the selects (below their labels), whatever error a select shows underneath. */}
      {!readOnly && (
        <div className="row" style={{ marginTop: "1.6rem", alignItems: "center" }}>
          <button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Saving…" : "Save"}
          </button>
          {saved && (
            <span className="badge ok" role="status">
              Saved
            </span>
          )}
          {formError && (
            <span className="field-error" role="alert">
              {formError}
            </span>
          )}
        </div>
      )}
    </form>
  );
}
