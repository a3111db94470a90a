"use client";

import type { ComponentProps } from "react";
import type { FieldError } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { countryOptions } from "@/lib/kyc/countries";

/** A labelled select of every ISO 3166-1 country by English name (value: the alpha-2 code), with its error. */
export function CountrySelect({
  label,
  error,
  ...select
}: { label: string; error?: FieldError } & ComponentProps<"select">) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <select {...control} {...select}>
          <option value="">Choose a country</option>
          {countryOptions().map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
