"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import styles from "./webhooks.module.css";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateText = z
  .string()
  .refine(
    (value) => value === "" || (DATE.test(value) && !Number.isNaN(Date.parse(value))),
    "must be a date (2026-11-01)",
  );

/** The form's values to the filters GET /v1/webhook_endpoints/{id}/events takes (dates inclusive, in UTC; empty means none). */
const filtersSchema = z
  .object({ onlyFailed: z.boolean(), startDate: dateText, endDate: dateText })
  .refine((filters) => !filters.startDate || !filters.endDate || filters.startDate <= filters.endDate, {
    path: ["startDate"],
    message: "must not be after the end date",
  })
  .transform((values) => ({
    onlyFailed: values.onlyFailed ? ("true" as const) : undefined,
    startDate: values.startDate || undefined,
    endDate: values.endDate || undefined,
  }));

export type DeliveryFilters = { onlyFailed?: "true"; startDate?: string; endDate?: string };
export const deliveryFilterNames = ["onlyFailed", "startDate", "endDate"] as const;

/** The filters in a URL's search parameters, as they are (the API answers 422 for a malformed date); onlyFailed is on only for "true". */
export function deliveryFiltersOf(params: { get: (name: string) => string | null }): DeliveryFilters {
  return {
    onlyFailed: params.get("onlyFailed") === "true" ? "true" : undefined,
    startDate: params.get("startDate") || undefined,
    endDate: params.get("endDate") || undefined,
  };
}

/** The delivery log's filter form; `serverErrors` are the API's 422 details for filters that came in through the URL. */
export function DeliveryFiltersForm({
  current,
  serverErrors,
  onApply,
}: {
  current: DeliveryFilters;
  serverErrors: Record<string, string>;
  onApply: (filters: DeliveryFilters) => void;
}) {
  const id = useId();
  const form = useForm<z.input<typeof filtersSchema>, unknown, DeliveryFilters>({
    resolver: zodResolver(filtersSchema),
    defaultValues: {
      onlyFailed: current.onlyFailed === "true",
      startDate: current.startDate ?? "",
      endDate: current.endDate ?? "",
    },
  });
  const errorOf = (name: "startDate" | "endDate") => {
    const message = form.formState.errors[name]?.message ?? serverErrors[name];
    return message ? { message } : undefined;
  };
  const filtered = deliveryFilterNames.some((name) => current[name]);
  return (
    <form
      className={`card row ${styles.filters}`}
      role="search"
      aria-label="Filter the deliveries"
      onSubmit={(event) => void form.handleSubmit(onApply)(event)}
      noValidate
    >
      <div className={styles.checkboxField}>
        <input type="checkbox" id={`${id}-failed`} {...form.register("onlyFailed")} />
        <label htmlFor={`${id}-failed`}>Failed only</label>
      </div>
      <Field label="From (UTC)" type="date" error={errorOf("startDate")} {...form.register("startDate")} />
      <Field label="To (UTC)" type="date" error={errorOf("endDate")} {...form.register("endDate")} />
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
