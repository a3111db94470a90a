"use client";

import { useId } from "react";
import type { FieldError, UseFormRegisterReturn } from "react-hook-form";
import { ROLE_DESCRIPTIONS, type Role } from "@/lib/auth/permissions";
import { ROLE_LABELS } from "@/components/employees/roles";

/**
 * A role as radio buttons, each with what the role may do underneath: the description is what
 * one chooses by, so it stays visible instead of hiding in a select's closed list.
 */
export function RolePicker({
  roles,
  registration,
  error,
  current,
  hint,
}: {
  roles: readonly Role[];
  registration: UseFormRegisterReturn;
  error?: FieldError;
  /** The employee's role now, marked as such. */
  current?: Role;
  hint?: string;
}) {
  const id = useId();
  const errorId = error?.message ? `${id}-error` : undefined;
  return (
    <fieldset
      className="role-picker"
      aria-describedby={[hint ? `${id}-hint` : undefined, errorId].filter(Boolean).join(" ") || undefined}
    >
      <legend>Role</legend>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {roles.map((role) => (
        <div key={role} className="role-option">
          <input
            type="radio"
            id={`${id}-${role}`}
            value={role}
            aria-describedby={`${id}-${role}-description`}
            {...registration}
          />
          <label htmlFor={`${id}-${role}`}>
            {ROLE_LABELS[role]}
            {role === current && <span className="muted"> (current)</span>}
          </label>
          <span id={`${id}-${role}-description`} className="hint">
            {ROLE_DESCRIPTIONS[role]}
          </span>
        </div>
      ))}
      {error?.message && (
        <span id={errorId} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </fieldset>
  );
}
