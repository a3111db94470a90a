"use client";

import { FlagSelects, useFlagsForm } from "@/components/accounts/use-flags-form";
import { updateAccountEndpoint } from "@/lib/accounts/endpoints";
import { api } from "@/lib/client/api";
import type { ResponseOf } from "@/lib/contract/endpoint";

export type Account = ResponseOf<typeof updateAccountEndpoint>;

/** An account's feature flags, edited in place (POST /v1/accounts/{accountId}); errors sit under the flag they name. */
export function AccountFlagsForm({ account }: { account: Account }) {
  const { apiForm, readOnly, saved, unsave } = useFlagsForm({
    stored: account.featureFlags,
    submit: (featureFlags) => api(updateAccountEndpoint, { params: { accountId: account.id }, body: { featureFlags } }),
    flagsOf: (updated) => updated.featureFlags,
    apiPrefix: "featureFlags.",
  });
  const { form, onSubmit, formError } = apiForm;

  return (
    <form
      className="row nowrap"
      style={{ alignItems: "flex-start" }}
      onSubmit={onSubmit}
      noValidate
      aria-label={`Feature flags of ${account.name}`}
    >
      <fieldset className="plain row nowrap" style={{ alignItems: "flex-start" }} disabled={readOnly}>
        <FlagSelects form={form} stored={account.featureFlags} onChange={unsave} />
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
