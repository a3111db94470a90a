"use client";

import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { newPasswordSchema } from "@/lib/employees/schemas";

/** A new password typed twice: the API's password rules, and the two must match. */
export const newPasswordForm = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, {
    path: ["confirm"],
    message: "does not match the password",
  });

export type NewPasswordValues = z.input<typeof newPasswordForm>;

/** The two fields of `newPasswordForm`, for the pages that set a password from a link (invitation, reset). */
export function NewPasswordFields({
  label,
  register,
  errors,
}: {
  label: string;
  register: UseFormRegister<NewPasswordValues>;
  errors: FieldErrors<NewPasswordValues>;
}) {
  return (
    <>
      <Field
        label={label}
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters, and not one of the most common passwords."
        error={errors.password}
        {...register("password")}
      />
      <Field
        label="Repeat password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        {...register("confirm")}
      />
    </>
  );
}
