"use client";

import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import type { FieldError } from "react-hook-form";

/** A labelled input with its hint and error, wired for screen readers (aria-invalid, aria-describedby). */
export function Field({
  label,
  hint,
  error,
  children,
  ...input
}: { label: string; hint?: ReactNode; error?: FieldError | { message?: string }; children?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error?.message ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children ?? <input id={id} aria-invalid={error?.message ? true : undefined} aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined} {...input} />}
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
