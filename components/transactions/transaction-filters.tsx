"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { useVirtualAccountChoices, virtualAccountLabel } from "@/components/virtual-accounts/use-virtual-accounts";
import { virtualAccountIdSchema, walletAddressSchema } from "@/lib/transactions/schemas";

/** The filters GET /v1/transactions validates, as a form: an empty box means "any". */
const filtersSchema = z.object({ virtualAccountId: virtualAccountIdSchema.optional(), walletAddress: walletAddressSchema.optional() });
export type TransactionFilters = z.output<typeof filtersSchema>;

const emptyAsMissing = (value: string) => (value.trim() === "" ? undefined : value.trim());

/**
 * Filter by virtual account (picked from the account's virtual accounts) and/or wallet address.
 * `serverErrors` are the API's 422 details for filters that came in through the URL.
 */
export function TransactionFiltersForm({
  current,
  serverErrors,
  onApply,
}: {
  current: TransactionFilters;
  serverErrors: Record<string, string>;
  onApply: (filters: TransactionFilters) => void;
}) {
  const choices = useVirtualAccountChoices();
  const selectId = useId();
  const form = useForm<z.input<typeof filtersSchema>, unknown, TransactionFilters>({
    resolver: zodResolver(filtersSchema),
    defaultValues: current,
  });
  const accounts = choices.data?.items ?? [];
  // A virtual account named in the URL but not among the newest 100 still shows as chosen.
  const unlisted = current.virtualAccountId && !accounts.some((account) => account.id === current.virtualAccountId);
  const vaError = form.formState.errors.virtualAccountId?.message ?? serverErrors.virtualAccountId;
  const walletError = form.formState.errors.walletAddress?.message ?? serverErrors.walletAddress;

  return (
    <form className="card row" role="search" aria-label="Filter transactions" onSubmit={form.handleSubmit(onApply)} noValidate>
      <div className="field">
        <label htmlFor={selectId}>Virtual account</label>
        {choices.isPending ? (
          // The real select mounts once its options exist, so the form can select the current one.
          <select id={selectId} disabled>
            <option>Loading…</option>
          </select>
        ) : (
          <select
            id={selectId}
            aria-invalid={vaError ? true : undefined}
            aria-describedby={vaError ? `${selectId}-error` : undefined}
            {...form.register("virtualAccountId", { setValueAs: emptyAsMissing })}
          >
            <option value="">Any virtual account</option>
            {unlisted && <option value={current.virtualAccountId}>{current.virtualAccountId}</option>}
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {virtualAccountLabel(account)}
              </option>
            ))}
          </select>
        )}
        {vaError && (
          <span id={`${selectId}-error`} className="field-error" role="alert">
            {vaError}
          </span>
        )}
        {choices.error && <span className="field-error">Could not load the virtual accounts: {choices.error.message}</span>}
      </div>
      <Field
        label="Wallet address"
        hint="Exact match."
        autoComplete="off"
        error={walletError ? { message: walletError } : undefined}
        {...form.register("walletAddress", { setValueAs: emptyAsMissing })}
      />
      <button type="submit" className="primary">
        Apply filters
      </button>
      {(current.virtualAccountId || current.walletAddress) && (
        <button type="button" className="link" onClick={() => onApply({})}>
          Clear filters
        </button>
      )}
    </form>
  );
}
