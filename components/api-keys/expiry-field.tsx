"use client";

import type { FieldError, UseFormRegisterReturn } from "react-hook-form";
import type { expiryBounds } from "@/components/api-keys/key-form";
import { Field } from "@/components/ui/field";

/** The day a key (or a rolled key's new secret) stops working, within the bounds the API accepts. */
export function ExpiryField({
  label,
  what,
  bounds,
  registration,
  error,
}: {
  label: string;
  /** What stops working, in the hint: "The key", "The new secret". */
  what: string;
  bounds: ReturnType<typeof expiryBounds>;
  registration: UseFormRegisterReturn;
  error?: FieldError;
}) {
  return (
    <Field
      label={label}
      type="date"
      min={bounds.min}
      max={bounds.max}
      hint={`At most one year from today. ${what} stops working at 00:00 UTC that day.`}
      error={error}
      {...registration}
    />
  );
}
