"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FlagSelect } from "@/components/accounts/flag-select";
import { useCan, useMe } from "@/components/me";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { DataState, ErrorMessage } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";
import { api, applyFieldErrors } from "@/lib/client/api";
import { featureFlagNames, featureFlagsInput, type FeatureFlags } from "@/lib/accounts/schemas";

type FormInput = z.input<typeof featureFlagsInput>;
type FormOutput = z.output<typeof featureFlagsInput>;

const unsetAsMissing = (value: string) => (value === "" ? undefined : value);

/** The signed-in employee's own account's feature-flag preferences (GET/POST /v1/feature_flags). */
export function FeatureFlagsForm() {
  const me = useMe();
  const flags = useQuery({ queryKey: ["/v1/feature_flags"], queryFn: () => api<FeatureFlags>("/v1/feature_flags") });
  return (
    <div className="stack">
      <PageHeader
        title="Feature flags"
        description={
          <>
            Preferences of your own account, {me.accountName}. Accounts under your platform are set on the <Link href="/accounts">Accounts</Link> page.
          </>
        }
      />
      <DataState query={flags}>
        {flags.data && <FlagsForm stored={flags.data} />}
      </DataState>
    </div>
  );
}

function FlagsForm({ stored }: { stored: FeatureFlags }) {
  const readOnly = !useCan()("feature_flags:write");
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(featureFlagsInput),
    // Follows the stored flags when they change (a refetch), keeping what the user is editing.
    values: { ...stored },
    resetOptions: { keepDirtyValues: true },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setSaved(false);
    setFormError(null);
    try {
      const updated = await api<FeatureFlags>("/v1/feature_flags", { method: "POST", body: values });
      form.reset({ ...updated });
      setSaved(true);
      queryClient.setQueryData(["/v1/feature_flags"], updated);
      await queryClient.invalidateQueries({ queryKey: ["/v1/accounts/paginate"] });
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, featureFlagNames));
    }
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-label="Your account's feature flags">
      <p className="muted" style={{ margin: 0 }}>
        Each flag is one of <strong>require</strong>, <strong>prefer</strong>, <strong>discourage</strong> or <strong>forbid</strong>.
      </p>
      {readOnly && <ReadOnlyNote>Your role can read the flags; developers, admins and owners change them.</ReadOnlyNote>}
      <fieldset className="plain row" disabled={readOnly}>
        {featureFlagNames.map((name) => (
          <FlagSelect
            key={name}
            label={name}
            unset={stored[name] === undefined}
            registration={form.register(name, { setValueAs: unsetAsMissing, onChange: () => setSaved(false) })}
            error={form.formState.errors[name]?.message as string | undefined}
          />
        ))}
      </fieldset>
      {!readOnly && (
        <div className="row">
          <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Saving…" : "Save flags"}
          </button>
        </div>
      )}
      {saved && (
        <div className="alert success" role="status">
          Feature flags saved.
        </div>
      )}
      <ErrorMessage error={formError} />
    </form>
  );
}
