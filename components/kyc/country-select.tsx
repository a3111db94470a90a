"use client";

import { useId, type ComponentProps } from "react";
import type { FieldError } from "react-hook-form";
import { countryOptions } from "@/lib/kyc/countries";

/** A labelled select of every ISO 3166-1 country by English name (value: the alpha-2 code), with its error. */
export function CountrySelect({ label, error, ...select }: { label: string; error?: FieldError } & ComponentProps<"select">) {
  const id = useId();
  const errorId = error?.message ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...select}>
        <option value="">Choose a country</option>
        {countryOptions().map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {errorId && (
        <span id={errorId} className="field-error" role="alert">
          {error?.message}
        </span>
      )}
    </div>
  );
}
