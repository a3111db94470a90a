"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { FilterBar, useFilterForm, type FilterFormProps } from "@/components/ui/filter-bar";

const optionalText = z.string().trim().max(100, "must be at most 100 characters").optional();
const optionalDate = z.iso.date("must be a date (2026-11-01)").optional();

/** The filters GET /v1/audit_events takes, with the same rules (inclusive dates, range not reversed). */
const filtersSchema = z
  .object({ action: optionalText, actorId: optionalText, startDate: optionalDate, endDate: optionalDate })
  .refine((filters) => !filters.startDate || !filters.endDate || filters.startDate <= filters.endDate, {
    path: ["startDate"],
    message: "must not be after endDate",
  });

export type AuditFilters = z.output<typeof filtersSchema>;
export const auditFilterNames = ["action", "actorId", "startDate", "endDate"] as const;

const emptyAsMissing = (value: string) => (value.trim() === "" ? undefined : value.trim());

/**
 * Filter form of the audit log. The action is picked from every action a record can carry (`actions`,
 * lib/audit/actions.ts), which the API matches exactly; one the URL names that is not among them
 * (an older service's) stays selectable.
 */
export function AuditFiltersForm({
  current,
  serverErrors,
  onApply,
  actions,
}: FilterFormProps<AuditFilters> & { actions: readonly string[] }) {
  const { form, errorOf } = useFilterForm(zodResolver(filtersSchema), current, serverErrors);
  const field = (name: (typeof auditFilterNames)[number]) => ({
    error: errorOf(name),
    ...form.register(name, { setValueAs: emptyAsMissing }),
  });
  return (
    <FilterBar
      label="Filter the audit log"
      className="audit-filters"
      onSubmit={(event) => void form.handleSubmit(onApply)(event)}
      onClear={() => onApply({})}
      filtered={auditFilterNames.some((name) => current[name])}
    >
      <Field label="Action" error={errorOf("action")}>
        {(control) => (
          <select {...control} {...form.register("action", { setValueAs: emptyAsMissing })}>
            <option value="">Any action</option>
            {current.action && !actions.includes(current.action) && (
              <option value={current.action}>{current.action}</option>
            )}
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Actor id" placeholder="emp_… or key_…" autoComplete="off" {...field("actorId")} />
      <Field label="From (UTC)" type="date" {...field("startDate")} />
      <Field label="To (UTC)" type="date" {...field("endDate")} />
    </FilterBar>
  );
}
