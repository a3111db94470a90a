"use client";

import type { FieldValues, UseFormSetError } from "react-hook-form";
import { showApiError } from "@/components/api-keys/key-form";
import { ApiRequestError } from "@/lib/client/api";

/**
 * Puts a refusal of an employee action where it is read: authenticator problems under the code
 * field, field `details` under their fields, and a conflict (the last active owner, a deactivated
 * employee) as the API's sentence above the buttons, since its `details` name no field of the form.
 */
export function showStepUpError<F extends FieldValues & { code: string }>(error: unknown, setError: UseFormSetError<F>, fields: readonly string[]): string | null {
  if (error instanceof ApiRequestError && error.status === 409) return error.message;
  return showApiError(error, setError, fields);
}
