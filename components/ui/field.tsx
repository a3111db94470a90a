"use client";

import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import type { FieldError } from "react-hook-form";

/** What a field's control needs to be named by its label, hint and error. */
export type ControlProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled input with its hint and error, wired for screen readers (aria-invalid, aria-describedby).
 * Another control (a select) comes as a function of the same wiring: `{(control) => <select {...control} />}`.
 */
export function Field({
  label,
  hint,
  error,
  children,
  ...input
}: {
  label: string;
  hint?: ReactNode;
  error?: FieldError | { message?: string };
  children?: ReactNode | ((control: ControlProps) => ReactNode);
} & Omit<InputHTMLAttributes<HTMLInputElement>, "children">) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error?.message ? `${id}-error` : undefined;
  const control: ControlProps = {
    id,
    "aria-invalid": errorId ? true : undefined,
    "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {typeof children === "function" ? children(control) : (children ?? <input {...control} {...input} />)}
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {error?.message && (
        <span id={errorId} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </div>
  );
}
