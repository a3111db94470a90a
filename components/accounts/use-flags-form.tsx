"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import type { z } from "zod";
import { FlagSelect } from "@/components/accounts/flag-select";
import { useCan } from "@/components/me";
import { useApiForm, type ApiForm } from "@/components/use-api-form";
import { queryKey } from "@/lib/client/query-keys";
import { listAccountsEndpoint, readFeatureFlagsEndpoint } from "@/lib/accounts/endpoints";
import { featureFlagNames, updateAccountInput, type FeatureFlags } from "@/lib/accounts/schemas";

type Input = z.input<typeof updateAccountInput>;
type Output = z.output<typeof updateAccountInput>;
export type FlagsForm = ApiForm<Input, Output>;

// "not set" in a select means "leave it as it is": the API merges the flags it is given.
const unsetAsMissing = (value: string) => (value === "" ? undefined : value);

/**
 * A feature-flag form, for one's own account (POST /v1/feature_flags, which names a refused flag
 * "partner") or any account (POST /v1/accounts/{id}, "featureFlags.partner"): the flags sit under
 * `featureFlags` in the form either way. It follows the stored flags when they change under it (a
 * refetch), keeping what the user is editing; a save refreshes the accounts and one's own flags.
 */
export function useFlagsForm<R>({
  stored,
  submit,
  flagsOf,
  apiPrefix,
}: {
  stored: FeatureFlags;
  submit: (flags: FeatureFlags) => Promise<R>;
  /** The flags as saved, from the API's answer. */
  flagsOf: (result: R) => FeatureFlags;
  /** How the API's `details` name a flag: "" for the flag map itself, "featureFlags." inside an account. */
  apiPrefix: "" | "featureFlags.";
}) {
  const readOnly = !useCan()("feature_flags:write");
  const [saved, setSaved] = useState(false);
  const apiForm = useApiForm<Input, R, Output>({
    resolver: zodResolver(updateAccountInput),
    values: { featureFlags: { ...stored } },
    resetOptions: { keepDirtyValues: true },
    beforeSubmit: () => {
      setSaved(false);
      return true;
    },
    submit: ({ featureFlags }) => submit(featureFlags),
    invalidates: [queryKey(listAccountsEndpoint), queryKey(readFeatureFlagsEndpoint)],
    onDone: (result) => {
      apiForm.form.reset({ featureFlags: { ...flagsOf(result) } });
      setSaved(true);
    },
    fields: featureFlagNames.map((name) => `${apiPrefix}${name}`),
    formPath: (path) => (apiPrefix ? path : `featureFlags.${path}`),
  });
  return { apiForm, readOnly, saved, unsave: () => setSaved(false) };
}

/** One select per feature flag, for a form of useFlagsForm. */
export function FlagSelects({
  form,
  stored,
  onChange,
}: {
  form: FlagsForm["form"];
  stored: FeatureFlags;
  onChange: () => void;
}) {
  const errors = form.formState.errors.featureFlags;
  return featureFlagNames.map((name) => (
    <FlagSelect
      key={name}
      label={name}
      unset={stored[name] === undefined}
      registration={form.register(`featureFlags.${name}`, { setValueAs: unsetAsMissing, onChange })}
      error={errors?.[name]?.message}
    />
  ));
}
