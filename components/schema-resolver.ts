"use client";

import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldErrors, FieldValues, Resolver } from "react-hook-form";
import { totpCodeSchema } from "@/lib/employees/schemas";

/** A problem with one path of the form's values, as zod reports it. */
export type Issue = { path: readonly PropertyKey[]; message: string };

/**
 * A resolver running the API's own schemas (through `validate`), so the browser's messages read like
 * the API's `details`; `formPath` puts each under the form field its API path belongs to (first message wins).
 */
export function schemaResolver<V extends FieldValues>(
  formPath: (path: readonly PropertyKey[]) => string,
  validate: (values: V) => Issue[],
): Resolver<V> {
  return (values, _context, options) => {
    const issues = validate(values);
    if (issues.length === 0) return { values, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of issues) flat[formPath(issue.path)] ??= { type: "validate", message: issue.message };
    return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
  };
}

/** The authenticator code's problems, under the code field. */
export const codeIssues = (code: string): Issue[] =>
  (totpCodeSchema.safeParse(code).error?.issues ?? []).map(({ message }) => ({ path: ["code"], message }));
