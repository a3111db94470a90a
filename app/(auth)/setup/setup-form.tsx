"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, applyFieldErrors } from "@/lib/client/api";
import { setupInput } from "@/lib/employees/schemas";

type Values = z.input<typeof setupInput>;

export function SetupForm() {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values>({ resolver: zodResolver(setupInput) });
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await api("/v1/setup", { method: "POST", body: values });
      router.push("/security");
      router.refresh();
    } catch (error) {
      setFormError(applyFieldErrors(error, setError, ["accountName", "name", "email", "password"]));
    }
  });
  const { errors, isSubmitting } = formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError} />
      <Field label="Platform name" autoComplete="organization" error={errors.accountName} {...register("accountName")} />
      <Field label="Your name" autoComplete="name" error={errors.name} {...register("name")} />
      <Field label="E-mail" type="email" autoComplete="email" error={errors.email} {...register("email")} />
      <Field label="Password" type="password" autoComplete="new-password" hint="At least 12 characters." error={errors.password} {...register("password")} />
      <button type="submit" className="primary" disabled={isSubmitting}>
        {isSubmitting ? "Creating…" : "Create platform"}
      </button>
    </form>
  );
}
