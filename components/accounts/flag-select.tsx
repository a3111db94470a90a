"use client";

import { useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { featureFlagValues } from "@/lib/accounts/schemas";

/**
 * One feature flag as a labelled select of the four preferences, with its error underneath. A flag
 * that was never set shows "not set", which submits nothing for it (the API merges flags, so a set
 * flag cannot be unset again and the choice is not offered then).
 */
export function FlagSelect({
  label,
  registration,
  unset,
  error,
}: {
  label: string;
  registration: UseFormRegisterReturn;
  unset: boolean;
  error?: string;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    // A fixed width, so an error underneath wraps instead of squeezing the select beside it.
    <div className="field" style={{ width: "9rem" }}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        style={{ width: "100%" }}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        {...registration}
      >
        {unset && <option value="">not set</option>}
        {featureFlagValues.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
