"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";

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

/** Filter form of the audit log; `serverErrors` are the API's 422 details for filters that came in through the URL. */
export function AuditFiltersForm({
  current,
  serverErrors,
  onApply,
}: {
  current: AuditFilters;
  serverErrors: Record<string, string>;
  onApply: (filters: AuditFilters) => void;
}) {
  const form = useForm<z.input<typeof filtersSchema>, unknown, AuditFilters>({ resolver: zodResolver(filtersSchema), defaultValues: current });
  const errorOf = (name: (typeof auditFilterNames)[number]) => {
    const message = form.formState.errors[name]?.message ?? serverErrors[name];
    return message ? { message } : undefined;
  };
  const filtered = auditFilterNames.some((name) => current[name]);
  return (
    <form className="card row" role="search" aria-label="Filter the audit log" onSubmit={form.handleSubmit(onApply)} noValidate>
      <Field label="Action" placeholder="api_key.issue" autoComplete="off" error={errorOf("action")} {...form.register("action", { setValueAs: emptyAsMissing })} />
      <Field
        label="Actor id"
        placeholder="emp_… or key_…"
        autoComplete="off"
        error={errorOf("actorId")}
        {...form.register("actorId", { setValueAs: emptyAsMissing })}
      />
      <Field label="From (UTC)" type="date" error={errorOf("startDate")} {...form.register("startDate", { setValueAs: emptyAsMissing })} />
      <Field label="To (UTC)" type="date" error={errorOf("endDate")} {...form.register("endDate", { setValueAs: emptyAsMissing })} />
      <button type="submit" className="primary">
        Apply filters
      </button>
      {filtered && (
        <button type="button" className="link" onClick={() => onApply({})}>
          Clear filters
        </button>
      )}
    </form>
  );
}
