"use client";

import type { FormEventHandler, ReactNode, Ref } from "react";
import { get, useForm, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import { ApiRequestError } from "@/lib/client/api";

/**
 * A list's filter form: its fields, "Apply filters", and "Clear filters" while any filter is in effect.
 * `plain`: no search landmark, and a full Clear button (for a filter form that is not a search).
 */
export function FilterBar({
  label,
  onSubmit,
  onClear,
  filtered,
  className,
  formRef,
  plain = false,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClear: () => void;
  filtered: boolean;
  className?: string;
  formRef?: Ref<HTMLFormElement>;
  plain?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      ref={formRef}
      className={className ? `card row ${className}` : "card row"}
      role={plain ? undefined : "search"}
      aria-label={label}
      onSubmit={onSubmit}
      noValidate
    >
      {children}
      <button type="submit" className="primary">
        Apply filters
      </button>
      {filtered && (
        <button type="button" className={plain ? undefined : "link"} onClick={onClear}>
          Clear filters
        </button>
      )}
    </form>
  );
}

/** What a list page gives its filter form: the filters in effect, the API's complaints about them, and where to apply new ones. */
export type FilterFormProps<F> = {
  current: F;
  /** The API's 422 details for filters that came in through the URL. */
  serverErrors: Record<string, string>;
  onApply: (filters: F) => void;
};

/**
 * The form of a filter bar, checked by the same rules as the API's query: `errorOf(name)` is the
 * form's own complaint about a filter, or else the API's (`serverErrors`, its 422 `details` for
 * filters that came in through the URL).
 */
export function useFilterForm<I extends FieldValues, O>(
  resolver: Resolver<I, unknown, O>,
  defaultValues: DefaultValues<I>,
  serverErrors: Record<string, string>,
) {
  const form = useForm<I, unknown, O>({ resolver, defaultValues });
  const errorOf = (name: Path<I>): { message: string } | undefined => {
    const own: { message?: unknown } | undefined = get(form.formState.errors, name);
    const message = typeof own?.message === "string" && own.message ? own.message : serverErrors[name];
    return message ? { message } : undefined;
  };
  return { form, errorOf };
}

/** A list's 422: the filters the API refused, by name, in its own words (none for any other error). */
export function filterErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiRequestError && error.status === 422 ? error.details : {};
}
