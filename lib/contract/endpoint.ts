import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";

// The typed contract of one /v1 route. Client-safe (zod and types only): the route wrapper
// (lib/http/route.ts), the OpenAPI document, the dashboard's client (lib/client/api.ts) and the
// tests all read the same definition, so a field changed in a schema is checked everywhere it is used.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** public: no credential; session: employees only; any: API key or session. */
export type Auth = "public" | "session" | "any";
type Schema = z.ZodType;

/** Everything the wrapper, the OpenAPI document, the client and the tests know about one route. */
export type Endpoint = {
  method: Method;
  /** The path as OpenAPI writes it, parameters in braces: `/v1/api_keys/{key}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  /**
   * The permission the caller needs (lib/auth/permissions.ts), checked for sessions through the
   * employee's role and for keys through the key's own list; 403 `err_forbidden` naming it otherwise.
   * null: a public route, or one every signed-in employee uses for themselves (sign-out, 2FA enrolment).
   */
  permission: Permission | null;
  /** Covers the whole platform (employees, all accounts, settings, audit log): a sub-account's key gets 403. */
  platformWide?: boolean;
  /** Open to an employee without 2FA even when the platform requires 2FA (who-am-I, sign-out, enrolment). */
  beforeTwoFactor?: boolean;
  /** From a session, require a current Service-Totp-Code (step-up). */
  totp?: boolean;
  status?: number;
  /**
   * The success is not JSON but the handler's own `Response` (a document's bytes, a CSV export), of one
   * of these media types: it goes out as the handler made it, plus the request's id and `no-store`.
   * Reads (GET) only, so there is no Idempotency-Key to keep it for.
   */
  produces?: readonly string[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: Schema;
  /**
   * The body is `multipart/form-data` (an upload), not JSON: `body` describes its parts, a file as
   * `z.file()`. A file over `maxFileBytes` answers 413 `err_payload_too_large`, refused from its
   * Content-Length before a byte is read, or as soon as the stream passes the limit.
   */
  multipart?: { maxFileBytes: number };
  /**
   * The body is signed by its sender (GitHub's secret-scanning reports): the wrapper reads its bytes (at
   * most 1 MiB, else 400) and parses nothing, so the handler verifies the signature over the exact bytes
   * (Context's `rawBody`) before anything reads them, then parses them itself. This schema is what the
   * OpenAPI document shows; set it instead of `body`, which the wrapper would parse first.
   */
  signedBody?: Schema;
  response?: Schema;
  /** Statuses this route can answer besides the success and the ones every route shares. */
  errors: number[];
  /** A /v1/sandbox route: answers 404 like an unknown route when SANDBOX=off. */
  sandbox?: boolean;
  /**
   * The handler is not run inside the request's transaction, because it does slow work that must not
   * hold the database (hashing a password) or writes that must outlast its refusal (throttle
   * counters). It keeps its own writes consistent; its audit record follows in a commit of its own.
   */
  ownTransactions?: true;
  /**
   * The success response carries a secret shown once (a key's `secret`, a TOTP secret, recovery codes, an
   * invitation link). It is never kept for Idempotency-Key replay (a repeat answers 409
   * `err_idempotency_secret`) and never logged; lib/testing/secret-responses.test.ts finds a response
   * schema with a secret-looking field that lacks this mark.
   */
  secretResponse?: true;
  /** Audit action name, e.g. "api_key.issue"; defaults to "METHOD /path". */
  action?: string;
  /**
   * Non-secret facts from the body worth keeping in the audit trail (e.g. the e-mail of a sign-in).
   * A method, so each definition's own, typed by its body schema (see endpoint()), still fits here.
   */
  auditDetails?(body: unknown): Record<string, unknown>;
};

/** What a schema gives after parsing, or undefined where the definition has none. */
export type Infer<S> = S extends Schema ? z.output<S> : undefined;
/** What a schema accepts, or undefined where the definition has none. */
export type InferInput<S> = S extends Schema ? z.input<S> : undefined;

/** The parsed path parameters, query, body and response of an endpoint. */
export type ParamsOf<E extends Endpoint> = Infer<E["params"]>;
export type QueryOf<E extends Endpoint> = Infer<E["query"]>;
export type BodyOf<E extends Endpoint> = Infer<E["body"]>;
/** The response body as the client receives it (the response schema's output, as JSON). */
export type ResponseOf<E extends Endpoint> = E["response"] extends Schema ? z.output<E["response"]> : unknown;

/**
 * A value as a handler may return it before JSON: a string may still be a Date (it goes out as
 * its ISO string, which is what the response schemas' date-time strings describe).
 */
export type Wire<T> = T extends string
  ? T | Date
  : T extends readonly (infer Item)[]
    ? readonly Wire<Item>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** What a handler returns: the response schema's input, Dates allowed for its date-time strings. */
export type ResultOf<E extends Endpoint> = E["response"] extends Schema ? Wire<z.input<E["response"]>> : unknown;

type BodyRule<B> = {
  body?: B;
  /** Non-secret facts from the parsed body for the audit trail, typed by the body schema. */
  auditDetails?: (body: Infer<B>) => Record<string, unknown>;
};

/**
 * Declares an endpoint. The literal types are kept (method, path, auth, each schema), so the route
 * wrapper, the client and the tests infer params, query, body and response from it; `auditDetails`
 * gets the parsed body's type.
 */
export function endpoint<
  const E extends Omit<Endpoint, "body" | "auditDetails">,
  B extends Schema | undefined = undefined,
>(definition: E & BodyRule<B>): E & { body: B; auditDetails?: (body: Infer<B>) => Record<string, unknown> } {
  return definition as E & { body: B };
}

/** A route as the contract and the audit trail name it: `GET /v1/api_keys/{key}`. */
export type Route = `${Method} /v1/${string}`;
type MethodOf<R> = R extends `${infer M extends Method} ${string}` ? M : never;
type PathOf<R> = R extends `${Method} ${infer P}` ? P : never;

/** What the endpoints of one group share, written once: their tag, and defaults each may override. */
export type EndpointDefaults = Pick<Endpoint, "tag"> &
  Partial<Pick<Endpoint, "auth" | "permission" | "platformWide" | "sandbox">>;

/** A definition in a group: what the group already says, and `errors` (default: none), may be left out. */
type GroupMember<D> = Omit<Endpoint, "method" | "path" | "body" | "auditDetails" | "errors" | keyof D> &
  Partial<Pick<Endpoint, "errors" | Extract<keyof D, keyof Endpoint>>>;

/** A group's definition as declared: its route, the group's defaults and what the definition names instead. */
type GroupEndpoint<D, R, E, B> = { method: MethodOf<R>; path: PathOf<R> } & Omit<D, keyof E> &
  Omit<{ errors: [] }, keyof E> &
  E & { body: B };

/**
 * Declares the endpoints of one group (a resource, the sandbox) as endpoint() does, each naming its
 * route and only what is its own: `const define = endpointGroup({ tag: "API keys", auth: "any" })`,
 * then `define("GET /v1/api_keys", { summary, permission, response })`. The literal types are kept
 * as endpoint() keeps them (the method and the path come from the route string).
 */
export function endpointGroup<const D extends EndpointDefaults>(defaults: D) {
  return <const R extends Route, const E extends GroupMember<D>, B extends Schema | undefined = undefined>(
    route: R,
    definition: E & BodyRule<B>,
  ): GroupEndpoint<D, R, E, B> & { auditDetails?: (body: Infer<B>) => Record<string, unknown> } => {
    const space = route.indexOf(" ");
    const [method, path] = [route.slice(0, space) as MethodOf<R>, route.slice(space + 1) as PathOf<R>];
    return { errors: [], ...defaults, ...definition, method, path } as GroupEndpoint<D, R, E, B>;
  };
}

/** The sandbox's routes (`/v1/sandbox/...`, SANDBOX=on only): one tag, one permission, for keys and sessions alike. */
export const defineSandbox = endpointGroup({ tag: "Sandbox", auth: "any", permission: "sandbox:write", sandbox: true });

/**
 * The endpoint's path with its parameters filled in (each encoded as one path segment):
 * `pathOf(revokeApiKeyEndpoint, { key: "key_1" })` is `/v1/api_keys/key_1`.
 */
export function pathOf(definition: Pick<Endpoint, "path">, params: Record<string, string> = {}): string {
  return definition.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${definition.path} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
