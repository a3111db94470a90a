"use client";

import type { FieldValues, Path, UseFormSetError } from "react-hook-form";

/** An error answer of the API, in the contract's shape, as the dashboard sees it. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type RequestOptions = {
  method?: "GET" | "POST" | "DELETE";
  body?: unknown;
  /** A current authenticator code, for the routes that need Service-Totp-Code. */
  totpCode?: string;
  /** Act for a sub-account (Service-Account-Id). */
  accountId?: string;
};

/**
 * Calls the dashboard's own /v1 API with the session cookie. Same-origin fetches carry Origin and
 * Sec-Fetch-Site, which is what the API's CSRF check wants.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.totpCode) headers["Service-Totp-Code"] = options.totpCode;
  if (options.accountId) headers["Service-Account-Id"] = options.accountId;
  const response = await fetch(path, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: "same-origin",
  });
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    throw new ApiRequestError(
      response.status,
      String(data?.error_code ?? "err_unknown"),
      String(data?.message ?? `The server answered ${response.status}`),
      (data?.details as Record<string, string> | undefined) ?? {},
    );
  }
  return data as T;
}

/** Builds a query string from the defined values only. */
export function queryString(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Puts the API's per-field `details` next to the form fields they name (the same paths the zod
 * schemas use, e.g. "cidrAllowlist.1"); returns the errors no field claimed, for a form-level message.
 */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly string[]): string | null {
  if (!(error instanceof ApiRequestError)) return error instanceof Error ? error.message : "Something went wrong";
  let unclaimed = Object.keys(error.details).length === 0;
  for (const [path, message] of Object.entries(error.details)) {
    if (fields.some((field) => path === field || path.startsWith(`${field}.`))) setError(path as Path<T>, { type: "server", message });
    else unclaimed = true;
  }
  return unclaimed ? error.message : null;
}
