"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { FilterBar, useFilterForm, type FilterFormProps } from "@/components/ui/filter-bar";
import { useVirtualAccountChoices, virtualAccountLabel } from "@/components/virtual-accounts/use-virtual-accounts";
import { virtualAccountIdSchema, walletAddressSchema } from "@/lib/transactions/schemas";

/** The filters GET /v1/transactions validates, as a form: an empty box means "any". */
const filtersSchema = z.object({
  virtualAccountId: virtualAccountIdSchema.optional(),
  walletAddress: walletAddressSchema.optional(),
});
export type TransactionFilters = z.output<typeof filtersSchema>;

const emptyAsMissing = (value: string) => (value.trim() === "" ? undefined : value.trim());

/** Filter by virtual account (picked from the account's virtual accounts) and/or wallet address. */
export function TransactionFiltersForm({ current, serverErrors, onApply }: FilterFormProps<TransactionFilters>) {
  const choices = useVirtualAccountChoices();
  const { form, errorOf } = useFilterForm(zodResolver(filtersSchema), current, serverErrors);
  const accounts = choices.data?.items ?? [];
  // A virtual account named in the URL but not among the newest 100 still shows as chosen.
  const unlisted = current.virtualAccountId && !accounts.some((account) => account.id === current.virtualAccountId);

  return (
    <FilterBar
      label="Filter transactions"
      onSubmit={(event) => void form.handleSubmit(onApply)(event)}
      onClear={() => onApply({})}
      filtered={Boolean(current.virtualAccountId || current.walletAddress)}
    >
      <Field label="Virtual account" error={errorOf("virtualAccountId")}>
        {(control) => (
          <>
            {choices.isPending ? (
              // The real select mounts once its options exist, so the form can select the current one.
              <select id={control.id} disabled>
                <option>Loading…</option>
              </select>
            ) : (
              <select {...control} {...form.register("virtualAccountId", { setValueAs: emptyAsMissing })}>
                <option value="">Any virtual account</option>
                {unlisted && <option value={current.virtualAccountId}>{current.virtualAccountId}</option>}
                {accounts.map((account) => (
                  <option key={account.id} value={account.id}>
                    {virtualAccountLabel(account)}
                  </option>
                ))}
              </select>
            )}
            {choices.error && (
              <span className="field-error">Could not load the virtual accounts: {choices.error.message}</span>
            )}
          </>
        )}
      </Field>
      <Field
        label="Wallet address"
        hint="Exact match."
        autoComplete="off"
        error={errorOf("walletAddress")}
        {...form.register("walletAddress", { setValueAs: emptyAsMissing })}
      />
    </FilterBar>
  );
}
