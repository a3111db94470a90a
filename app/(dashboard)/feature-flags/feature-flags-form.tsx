"use client";

import Link from "@/components/ui/link";
import { FlagSelects, useFlagsForm } from "@/components/accounts/use-flags-form";
import { useMe } from "@/components/me";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { DataState, ErrorMessage } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/use-page-dialogs";
import { readFeatureFlagsEndpoint, updateFeatureFlagsEndpoint } from "@/lib/accounts/endpoints";
import type { FeatureFlags } from "@/lib/accounts/schemas";
import { api } from "@/lib/client/api";
import { useApiQuery } from "@/lib/client/queries";

/** The signed-in employee's own account's feature-flag preferences (GET/POST /v1/feature_flags). */
export function FeatureFlagsForm() {
  const me = useMe();
  const flags = useApiQuery(readFeatureFlagsEndpoint);
  return (
    <div className="stack">
      <PageHeader
        title="Feature flags"
        description={
          <>
            Preferences of your own account, {me.accountName}. Accounts under your platform are set on the{" "}
            <Link href="/accounts">Accounts</Link> page.
          </>
        }
      />
      <DataState query={flags}>{flags.data && <FlagsForm stored={flags.data} />}</DataState>
    </div>
  );
}

function FlagsForm({ stored }: { stored: FeatureFlags }) {
  const { apiForm, readOnly, saved, unsave } = useFlagsForm({
    stored,
    submit: (body) => api(updateFeatureFlagsEndpoint, { body }),
    flagsOf: (updated) => updated,
    apiPrefix: "",
  });
  const { form, onSubmit, formError } = apiForm;

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-label="Your account's feature flags">
      <p className="muted" style={{ margin: 0 }}>
        Each flag is one of <strong>require</strong>, <strong>prefer</strong>, <strong>discourage</strong> or{" "}
        <strong>forbid</strong>.
      </p>
      {readOnly && (
        <ReadOnlyNote>Your role can read the flags; developers, admins and owners change them.</ReadOnlyNote>
      )}
      <fieldset className="plain row" disabled={readOnly}>
        <FlagSelects form={form} stored={stored} onChange={unsave} />
      </fieldset>
      {!readOnly && (
        <div className="row">
          <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Saving…" : "Save flags"}
          </button>
        </div>
      )}
      {saved && <Notice>Feature flags saved.</Notice>}
      <ErrorMessage error={formError} />
    </form>
  );
}
