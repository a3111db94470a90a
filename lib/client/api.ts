"use client";

import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { pathOf, type Endpoint, type ResponseOf } from "@/lib/contract/endpoint";
import { currentAccountId } from "@/lib/client/current-account";
import { loginHref } from "@/lib/auth/next-path";
import { takeArmedPasskey } from "@/lib/client/passkeys";
import { signOutEndpoint } from "@/lib/employees/endpoints";

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

/** What a schema accepts (its input), or nothing where the definition has none. */
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** A query as the client writes it: each parameter of the endpoint's query schema, any of them left out. */
export type QueryInput<E extends Endpoint> = E["query"] extends z.ZodObject
  ? { [K in keyof z.input<E["query"]>]?: QueryValue }
  : undefined;

/** One query parameter's value; a list repeats the parameter (`status=requested&status=on_review`). */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

/** Path parameters are required where the endpoint's path has any; a body where it takes one. */
type ParamsOption<E extends Endpoint> = E["params"] extends z.ZodObject
  ? { params: { [K in keyof z.input<E["params"]>]: string } }
  : { params?: undefined };
type BodyOption<E extends Endpoint> = E["body"] extends z.ZodType ? { body: InputOf<E["body"]> } : { body?: undefined };

/** Everything one call of an endpoint needs besides the definition. */
export type ApiOptions<E extends Endpoint> = ParamsOption<E> &
  BodyOption<E> & {
    query?: QueryInput<E>;
    /** A current authenticator code, for the routes that need Service-Totp-Code. */
    totpCode?: string;
    /** Instead of a code: a passkey's assertion as Service-Passkey-Assertion carries it (lib/client/passkeys.ts). */
    passkeyAssertion?: string;
    /** Act for this account (Service-Account-Id); left out, the one in the address bar; null, the own one. */
    accountId?: string | null;
  };

/** The options argument may be left out where nothing in it is required. */
export type ApiArgs<E extends Endpoint> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends T` asks whether every property of T is optional
  {} extends ApiOptions<E> ? [options?: ApiOptions<E>] : [options: ApiOptions<E>];

/**
 * Calls the dashboard's own /v1 API with the session cookie, through the route's own definition:
 * `api(revokeApiKeyEndpoint, { params: { key }, totpCode })`. The path, parameters, body and the
 * answer's type all come from the definition the server validates with. Same-origin fetches carry
 * Origin and Sec-Fetch-Site, which is what the API's CSRF check wants.
 */
export async function api<E extends Endpoint>(definition: E, ...[options]: ApiArgs<E>): Promise<ResponseOf<E>> {
  return (await send(definition, options ?? {})) as ResponseOf<E>;
}

/** What `send` needs of a call, whatever the endpoint (api() checks it against the definition). */
export type SendOptions = {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, QueryValue>;
  totpCode?: string;
  passkeyAssertion?: string;
  accountId?: string | null;
};

/** The untyped half of api(), for the hooks that wrap it (lib/client/queries.ts). */
export async function send(
  definition: Endpoint,
  { params, body, query, totpCode, passkeyAssertion, accountId }: SendOptions,
): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json" };
  // An upload goes as multipart/form-data, its boundary set by fetch; everything else as JSON.
  if (body !== undefined && !definition.multipart) headers["content-type"] = "application/json";
  // A step-up dialog's passkey (armed by its button) goes in place of the code field's stand-in.
  const assertion = passkeyAssertion ?? takeArmedPasskey(totpCode);
  if (assertion) headers["Service-Passkey-Assertion"] = assertion;
  else if (totpCode) headers["Service-Totp-Code"] = totpCode;
  // Every call acts for the account the dashboard shows (the shell's account switcher, `?account=`).
  const account = accountId === undefined ? currentAccountId() : accountId;
  if (account) headers["Service-Account-Id"] = account;
  const response = await fetch(pathOf(definition, params) + queryString(query ?? {}), {
    method: definition.method,
    headers,
    body: body === undefined ? undefined : definition.multipart ? formDataOf(body) : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.status === 401 && definition.auth !== "public") signInAgain();
  if (!response.ok) throw errorOf(response.status, data);
  return data;
}

/**
 * A 401 from an authenticated route means the session is over (signed out elsewhere, expired, or the
 * employee was deactivated): the browser goes to sign-in at once, to come back to this page, with its
 * filters, afterwards. Client-side navigation does not re-run the layout's server check, so this is
 * where an open page learns it. The sign-in call itself answers 401 for a wrong password: not here.
 */
function signInAgain() {
  if (leavingForSignIn) return;
  const { pathname, search } = window.location;
  if (pathname === "/login") return;
  leavingForSignIn = true;
  window.location.assign(loginHref(`${pathname}${search}`));
}

/**
 * Set once this tab is on its way to sign-in. Queries still in flight when the session ends answer
 * 401 too, and one answered after the sign-out's own would otherwise send the tab elsewhere (to
 * sign-in with `?next=`, back to the page the employee chose to leave).
 */
let leavingForSignIn = false;

/**
 * Ends this session and goes to sign-in with a full page load: nothing the signed-out employee saw
 * stays in this tab's memory. Sent without the account: signing out concerns the session, whichever
 * account is shown. The page goes to sign-in whether or not the call got through.
 */
export async function signOut(): Promise<void> {
  leavingForSignIn = true;
  await api(signOutEndpoint, { accountId: null }).catch(() => undefined);
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full page load on purpose (above)
  window.location.assign("/login");
}

function errorOf(status: number, data: unknown): ApiRequestError {
  const body = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const details =
    typeof body.details === "object" && body.details !== null ? (body.details as Record<string, string>) : {};
  return new ApiRequestError(
    status,
    String(body.error_code ?? "err_unknown"),
    String(body.message ?? `The server answered ${status}`),
    details,
  );
}

/** An upload's parts (a file as a File or Blob) as multipart/form-data. */
function formDataOf(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, string | Blob>)) form.append(name, value);
  return form;
}

/** Builds a query string from the defined values only; a list repeats its parameter, once per value. */
export function queryString(values: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value as readonly string[]) params.append(key, item);
    else if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Puts the API's per-field `details` next to the form fields they name (the same paths the zod
 * schemas use, e.g. "cidrAllowlist.1"); returns the errors no field claimed, for a form-level message.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): string | null {
  if (!(error instanceof ApiRequestError)) return error instanceof Error ? error.message : "Something went wrong";
  let unclaimed = Object.keys(error.details).length === 0;
  for (const [path, message] of Object.entries(error.details)) {
    if (fields.some((field) => path === field || path.startsWith(`${field}.`)))
      setError(path as Path<T>, { type: "server", message });
    else unclaimed = true;
  }
  return unclaimed ? error.message : null;
}

/** Same-origin credentials and the account the dashboard acts for, as send() sets them. */
function accountHeaders(accountId: string | null | undefined, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept };
  const account = accountId === undefined ? currentAccountId() : accountId;
  if (account) headers["Service-Account-Id"] = account;
  return headers;
}

/**
 * The bytes a GET route answers with (a document's content), for a preview or a download: an <img>
 * or a plain link could not send Service-Account-Id, so a page acting for another account reads them
 * this way. A refusal is read as send() reads it.
 */
export async function fetchBlob(
  definition: Endpoint,
  { params, accountId }: Pick<SendOptions, "params" | "accountId">,
): Promise<Blob> {
  const response = await fetch(pathOf(definition, params), {
    headers: accountHeaders(accountId, "*/*"),
    credentials: "same-origin",
  });
  if (response.ok) return response.blob();
  if (response.status === 401 && definition.auth !== "public") signInAgain();
  throw errorOf(response.status, await response.json().catch(() => null));
}
