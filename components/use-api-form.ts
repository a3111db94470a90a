"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import {
  useForm,
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormReturn,
  type UseFormSetError,
} from "react-hook-form";
import { ApiRequestError, applyFieldErrors } from "@/lib/client/api";

/** How a form reads the API's refusals. */
export type ApiErrorMapping = {
  /** The API paths (`details` keys) the form shows under its fields; the rest go above the buttons. */
  fields: readonly string[];
  /** The form field an API path belongs to, where the names differ ("expiresAt" → "expiresOn"). */
  formPath?: (path: string) => string;
  /**
   * Where a 409 goes: "form" puts the API's sentence above the buttons even when its `details` name
   * a field; a field name puts it under that field (focused). Left out, a 409 is read like any refusal.
   */
  conflict?: "form" | string;
};

const isOtpRefusal = (error: unknown): error is ApiRequestError =>
  error instanceof ApiRequestError && (error.code === "err_otp_invalid" || error.code === "err_otp_required");

/**
 * Puts an API refusal where it is read: authenticator problems under the code field (focused),
 * `details` under the fields they name. Returns what no field claimed, for a message above the buttons.
 */
export function showApiFormError<F extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<F>,
  { fields, formPath, conflict }: ApiErrorMapping,
): string | null {
  if (error instanceof ApiRequestError && error.status === 409 && conflict !== undefined) {
    if (conflict === "form") return error.message;
    setError(conflict as Path<F>, { type: "server", message: error.message }, { shouldFocus: true });
    return null;
  }
  // Only a form with a code field shows them there; elsewhere they are read like any refusal.
  if (isOtpRefusal(error) && fields.includes("code")) {
    setError("code" as Path<F>, { type: "server", message: error.message }, { shouldFocus: true });
    return null;
  }
  const setAtFormPath: UseFormSetError<F> = formPath
    ? (name, fieldError, options) => setError(formPath(name) as Path<F>, fieldError, options)
    : setError;
  return applyFieldErrors(error, setAtFormPath, fields);
}

type Options<I extends FieldValues, O, R> = ApiErrorMapping &
  Pick<UseFormProps<I, unknown, O>, "resolver" | "defaultValues" | "values" | "resetOptions"> & {
    /** Sends the checked values to the API. */
    submit: (values: O) => Promise<R>;
    /** Queries to refresh after a success, awaited before `onDone` (so what the page shows next is current). */
    invalidates?: readonly QueryKey[];
    /**
     * Runs first on a valid submit: clears what the last success showed, or checks what the API cannot
     * (or should not spend a code on); return false to stop, after setting a field error.
     */
    beforeSubmit?: (values: O, form: UseFormReturn<I, unknown, O>) => boolean;
    /**
     * A refusal this form reads its own way (sign-in's second step, a wrong setup token): return true
     * once it is shown; false leaves it to the usual placing.
     */
    onRefusal?: (error: unknown, form: UseFormReturn<I, unknown, O>) => boolean;
    onDone: (result: R, values: O) => void | Promise<void>;
  };

export type ApiForm<I extends FieldValues, O = I> = {
  form: UseFormReturn<I, unknown, O>;
  onSubmit: (event?: React.BaseSyntheticEvent) => void;
  /** The same submit, awaitable (a step-up dialog's passkey button submits this way). */
  submitNow: () => Promise<void>;
  /** The refusal no field claimed, for <ErrorMessage> above the buttons. */
  formError: string | null;
  /** Forgets (or sets) that message, e.g. when the form's changes are discarded. */
  setFormError: (message: string | null) => void;
};

/**
 * What every dashboard form does with the API: react-hook-form with the given resolver, submit
 * through a react-query mutation (refreshing `invalidates` on success), the API's field errors
 * (`details`) under their fields and anything else as one form-level message.
 */
export function useApiForm<I extends FieldValues, R, O = I>({
  resolver,
  defaultValues,
  values,
  resetOptions,
  submit,
  invalidates = [],
  beforeSubmit,
  onRefusal,
  onDone,
  ...mapping
}: Options<I, O, R>): ApiForm<I, O> {
  const queryClient = useQueryClient();
  const form = useForm<I, unknown, O>({ resolver, defaultValues, values, resetOptions });
  const mutation = useMutation({
    mutationFn: submit,
    onSuccess: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const submitForm = form.handleSubmit(async (values) => {
    setFormError(null);
    if (beforeSubmit && !beforeSubmit(values, form)) return;
    let result: R;
    try {
      result = await mutation.mutateAsync(values);
    } catch (error) {
      if (!onRefusal?.(error, form)) setFormError(showApiFormError(error, form.setError, mapping));
      return;
    }
    await onDone(result, values);
  });
  // An event handler's promise is dropped by React anyway: refusals are shown above, and react-hook-form keeps isSubmitting.
  const onSubmit = (event?: React.BaseSyntheticEvent) => void submitForm(event);
  return { form, onSubmit, submitNow: () => submitForm(), formError, setFormError };
}
