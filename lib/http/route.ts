import { ZodError, type z } from "zod";
import { recordAuditEvent, writeAuditEvent, type AuditActor, type AuditEventInput, type Commit } from "@/lib/audit/trail";
import { authenticate, type Actor, type EmployeeActor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { isSameOrigin } from "@/lib/http/csrf";
import { verifyEmployeeTotp } from "@/lib/auth/two-factor";
import { ApiError, toApiError, validationError } from "@/lib/http/api-error";
import { DomainError } from "@/lib/errors";
import type { Auth, BodyOf, Endpoint, Method, ParamsOf, QueryOf, ResultOf } from "@/lib/contract/endpoint";
import { clientIp } from "@/lib/http/client-ip";
import { prototypeKeyIssues } from "@/lib/contract/text";
import { env } from "@/lib/env";
import { inTransaction, isDatabaseBusy, isUniqueViolation } from "@/lib/db";
import { randomHex } from "@/lib/ids/generate";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprintOf,
  idempotencyKeyOf,
  releaseIdempotencyKey,
  type IdempotencyClaim,
} from "@/lib/http/idempotency";
import { Prisma } from "@/lib/generated/prisma/client";
import { withinContext } from "@/lib/request-context";
import { inScope, scopeFor, type Scope } from "@/lib/tenancy";
import { isImmutable } from "@/lib/immutable";
import { andThen, type MaybePromise } from "@/lib/maybe-promise";

type Schema = z.ZodType;

/** Who calls a route: nobody known (public), an employee (session), or either. */
type ActorOf<A extends Auth> = A extends "public" ? null : A extends "session" ? EmployeeActor : Actor;

export type Context<E extends Endpoint> = {
  request: Request;
  actor: ActorOf<E["auth"]>;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** The tenant the request acts in (null on public routes); tenantDb() queries are confined to it. */
  scope: E["auth"] extends "public" ? null : Scope;
  ip: string | null;
  requestId: string;
  /** Headers added to the success response (Set-Cookie, say). */
  headers: Headers;
  /**
   * What the audit record should say beyond what the wrapper knows. `details`: what the change changed
   * (before and after), merged into the record of a success only, and never a secret.
   */
  audit: { actor?: AuditActor; targetId?: string; details?: Record<string, unknown> };
  /**
   * For `ownTransactions` handlers: runs their writes in one transaction with the success audit
   * record (optionally naming the actor, once the flow knows who it is). Elsewhere the handler already
   * runs in the request's transaction, and this simply runs `work` in it.
   */
  commit: Commit;
};

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };
/** A route file's export as Next.js calls it, carrying its definition (tests and the walks read it). */
export type Handler<E extends Endpoint = Endpoint> = ((request: Request, context: NextContext) => Promise<Response>) & { endpoint?: E };

const MAX_BODY_BYTES = 1024 * 1024;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request's ids. `requestId` is the server's own (`req_...`): the audit trail, the log and a 500's
 * message name it, since a client chooses its own id and could pass off one of another request.
 * `clientRequestId` is the client's X-Request-Id when it sent a sane one, kept apart in the audit trail.
 */
export type RequestIds = { requestId: string; clientRequestId: string | null };

export function requestIdsOf(request: Request): RequestIds {
  const given = request.headers.get("x-request-id");
  return { requestId: `req_${randomHex(12)}`, clientRequestId: given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : null };
}

/** The response's X-Request-Id: the client's sane one echoed (CONTRACT.md, "Conventions"), else the server's own. */
const headerIdOf = (ids: RequestIds) => ids.clientRequestId ?? ids.requestId;

/** The X-Request-Id a response to `request` carries, for answers that neither log nor audit (404 of no route, 405). */
export const requestIdOf = (request: Request): string => headerIdOf(requestIdsOf(request));

function json(body: unknown, status: number, requestId: string, extra?: HeadersInit, text = status === 204 ? null : JSON.stringify(body)): Response {
  const response = new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId },
  });
  if (extra) {
    for (const [name, value] of extra instanceof Headers ? extra : new Headers(extra)) {
      if (!OWN_HEADERS.has(name)) response.headers.append(name, value);
    }
  }
  return response;
}

/** Set by json() itself; a handler's headers cannot replace them. */
const OWN_HEADERS = new Set(["content-type", "cache-control", "x-request-id"]);

/**
 * Turns anything thrown into the contract's error body; only unexpected errors are logged, without
 * internals in the reply, under the server's own request id, which the reply quotes.
 */
export function errorResponse(error: unknown, ids: RequestIds): Response {
  const { requestId } = ids;
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof DomainError) apiError = toApiError(error);
  else if (error instanceof ZodError) apiError = validationError(error);
  else if (isUniqueViolation(error)) {
    apiError = new ApiError("err_conflict", "A resource with these unique values already exists");
  } else if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025") {
    apiError = new ApiError("err_not_found", "Resource not found");
  } else if (isDatabaseBusy(error)) {
    // Nothing was changed (the transaction rolled back): the client may send it again shortly.
    console.error(`[${requestId}] database busy: ${error instanceof Error ? error.message.split("\n").at(-1) : String(error)}`);
    apiError = new ApiError("err_unavailable", "The service is busy; try again shortly", undefined, { "Retry-After": "1" });
  } else {
    const name = error instanceof Error ? error.name : typeof error;
    const stack = error instanceof Error ? error.stack : String(error);
    const client = ids.clientRequestId ? ` (client X-Request-Id ${ids.clientRequestId})` : "";
    console.error(`[${requestId}]${client} unhandled ${name}: ${stack}`);
    apiError = new ApiError("err_internal", `Internal error; quote request id ${requestId} when reporting it`);
  }
  return json(apiError.body(), apiError.status, headerIdOf(ids), apiError.headers);
}

/** The body as text, refused past MAX_BODY_BYTES bytes without reading further (Content-Length can lie or be absent), and unless it is UTF-8. */
async function readBodyText(request: Request): Promise<string> {
  const tooLarge = () => new ApiError("err_bad_request", "The body is larger than 1 MiB");
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client closed the connection mid-body ("aborted"): nobody is left to read a reply, and it is no fault of ours to log.
      throw new ApiError("err_bad_request", "The body ended before it was complete");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("err_bad_request", "The body is not valid UTF-8");
  }
}

/**
 * Refuses bytes that are not UTF-8 (Buffer.toString would store them as U+FFFD without a word). A
 * byte order mark stays a character, so JSON.parse refuses it as before (RFC 8259: never send one).
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function parseJsonBody(request: Request, text: string): unknown {
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("err_bad_request", "Send the body as JSON with Content-Type: application/json");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("err_bad_request", "The body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ApiError("err_bad_request", "The body must be a JSON object");
  }
  // JSON.parse makes "__proto__" an own property, which zod would drop without a word: refuse it (and its kin) anywhere.
  const prototypeKeys = prototypeKeyIssues(parsed);
  if (prototypeKeys.length) throw validationError(prototypeKeys);
  return parsed;
}

function parseWith<S extends Schema>(schema: S | undefined, input: unknown, where?: "query" | "params") {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A malformed id in a path is just an id that does not exist.
  if (where === "params") throw new ApiError("err_not_found", "Resource not found");
  throw validationError(result.error, where);
}

/**
 * The one wrapper every /v1 handler goes through: request id, authentication, CSRF, the
 * Service-Totp-Code rule, input validation, Idempotency-Key, output filtering, error mapping and the
 * audit trail. Handlers return plain data, typed by the endpoint's response schema (Dates allowed
 * for its date-time strings), which the answer passes through. A mutating handler runs in one database transaction with
 * its audit record (and its kept idempotent response): all of it commits, or none of it.
 */
export function route<E extends Endpoint>(definition: E, handler: (context: Context<E>) => MaybePromise<ResultOf<E>>): Handler<E> {
  const successStatus = definition.status ?? 200;
  /** The answers of immutable results (lib/immutable.ts), kept for as long as the result object lives: the same rows give the same JSON. */
  const answers = new WeakMap<object, Answer>();
  const handle = async (request: Request, nextContext: NextContext): Promise<Response> => {
    const ids = requestIdsOf(request);
    const { requestId, clientRequestId } = ids;
    const headerId = headerIdOf(ids);
    const ip = clientIp(request);
    const mutating = !SAFE_METHODS.has(request.method);
    const audit: Context<E>["audit"] = {};
    let actor: Actor | null = null;
    let scope: Scope | null = null;
    let params: Record<string, unknown> | undefined;
    let body: unknown;
    let result: unknown;
    let response: Response;
    let claim: IdempotencyClaim | null = null;
    /** Whether the handler began: a refusal before it is never kept for Idempotency-Key repeats. */
    let handlerRan = false;
    let audited = false;
    const auditEvent = (status: number, details?: Record<string, unknown>): AuditEventInput => {
      const resultId = (result as { id?: unknown } | null)?.id;
      return {
        actor: actor ? { type: actor.type, id: actor.id, platformId: actor.platformId, accountId: actor.accountId } : (audit.actor ?? null),
        actedForAccountId: scope?.accountId ?? null,
        action: definition.action ?? `${definition.method} ${definition.path}`,
        targetId: audit.targetId ?? firstString(Object.values(params ?? {})) ?? (typeof resultId === "string" ? resultId : null),
        ip,
        status,
        requestId,
        clientRequestId,
        details: mergedDetails(body && definition.auditDetails ? definition.auditDetails(body) : undefined, status < 400 ? audit.details : undefined, details),
      };
    };
    try {
      if (definition.sandbox && env().SANDBOX === "off") {
        throw new ApiError("err_not_found", `No route ${new URL(request.url).pathname}`);
      }
      if (definition.params) {
        const rawParams = Object.fromEntries(
          Object.entries((await nextContext?.params) ?? {}).map(([key, value]) => [key, Array.isArray(value) ? value.join("/") : value]),
        );
        params = parseWith(definition.params, rawParams, "params");
      }
      if (definition.auth === "public") {
        if (mutating && !isSameOrigin(request, { requireProof: false })) {
          throw new ApiError("err_forbidden", "Cross-site request refused");
        }
      } else {
        const authenticated = authenticate(request, ip);
        actor = authenticated instanceof Promise ? await authenticated : authenticated;
        if (actor.type === "employee" && mutating && !isSameOrigin(request, { requireProof: true })) {
          throw new ApiError("err_forbidden", "Cross-site request refused: send it from the dashboard's own origin");
        }
        if (definition.auth === "session" && actor.type !== "employee") {
          throw new ApiError("err_forbidden", "This route acts for a signed-in employee; API keys cannot use it");
        }
        authorize(definition, actor);
        const named = scopeFor(actor, request.headers.get("service-account-id"));
        scope = named instanceof Promise ? await named : named;
      }
      // Next.js hands route handlers a NextRequest whose URL it already parsed.
      const searchParams = (request as { nextUrl?: URL }).nextUrl?.searchParams ?? new URL(request.url).searchParams;
      const rawQuery = Object.fromEntries(searchParams);
      const queryPrototypeKeys = prototypeKeyIssues(rawQuery);
      if (queryPrototypeKeys.length) throw validationError(queryPrototypeKeys, "query");
      const query = parseWith(definition.query, rawQuery, "query");
      const bodyText = definition.body || request.method === "POST" ? await readBodyText(request) : "";
      // Idempotency-Key binds to a credential, so public routes (sign-in, setup) have none to bind to.
      const idempotencyKey = request.method === "POST" && actor ? idempotencyKeyOf(request) : null;
      if (idempotencyKey && actor) {
        const ours = { credential: `${actor.type}:${actor.id}`, key: idempotencyKey };
        const fingerprint = fingerprintOf({ method: request.method, url: request.url, serviceAccountId: scope?.accountId ?? null, body: bodyText });
        // Throws 409/422 for a key in use by another request: that claim is not ours to settle.
        const claimed = await claimIdempotencyKey({ ...ours, fingerprint });
        if ("claim" in claimed) claim = claimed.claim;
        else {
          const { kept } = claimed;
          audited = true;
          await recordAuditEvent(auditEvent(kept.status, { idempotentReplay: true }));
          return json(kept.body, kept.status, headerId, { "Idempotent-Replayed": "true" });
        }
      }
      body = definition.body ? parseWith(definition.body, parseJsonBody(request, bodyText)) : undefined;
      if (definition.totp && actor?.type === "employee") {
        await verifyEmployeeTotp({ employeeId: actor.id, code: request.headers.get("service-totp-code") });
      }
      // Made only when a handler adds a header (Set-Cookie, say): most never do.
      let headers: Headers | undefined;
      const commit: Commit = definition.ownTransactions
        ? async (work, who) => {
            const committed = await inTransaction(async () => {
              const done = await work();
              const named = typeof who === "function" ? who(done) : who;
              if (named) {
                audit.actor = named;
                audit.targetId ??= named.id;
              }
              await writeAuditEvent(auditEvent(successStatus));
              return done;
            });
            audited = true;
            return committed;
          }
        : (work) => work();
      const context = {
        request,
        actor,
        scope,
        params,
        query,
        body,
        ip,
        requestId,
        get headers() {
          return (headers ??= new Headers());
        },
        audit,
        commit,
      } as Context<E>;
      /** The handler's result as it goes out: through the response schema, which drops anything not in it. */
      const answer = (value: ResultOf<E>): Answer => {
        result = value;
        const immutableResult = isImmutable(value) ? (value as object) : null;
        const kept = immutableResult && answers.get(immutableResult);
        if (kept) return kept;
        const plain = value === undefined ? null : toWire(value);
        let output = plain;
        if (definition.response) {
          const checked = definition.response.safeParse(plain);
          // An answer that does not fit its own schema is the service's bug (500), never the caller's (422).
          if (!checked.success) throw new Error(`${definition.method} ${definition.path} answered outside its response schema: ${checked.error.message}`);
          output = checked.data;
        }
        const made = { output, text: successStatus === 204 ? null : JSON.stringify(output) };
        if (immutableResult) answers.set(immutableResult, made);
        return made;
      };
      const run = () => {
        handlerRan = true;
        return andThen(handler(context), answer);
      };
      /** What Idempotency-Key repeats get: the response, or a refusal when it held a secret shown once. */
      const toKeep = (output: unknown) =>
        definition.secretResponse ? { status: successStatus, heldSecret: true as const } : { status: successStatus, body: output };
      // The kept response and the audit record, in the handler's transaction: they count as written
      // (claim settled, audited) only once it committed, since what runs at COMMIT can still refuse.
      const finish = async (made: Answer) => {
        if (claim) await completeIdempotencyKey(claim, toKeep(made.output));
        await writeAuditEvent(auditEvent(successStatus));
        return made;
      };
      // A read on SQLite answers at once: no promise is made on its way (lib/maybe-promise.ts).
      const scoped = <T>(work: () => MaybePromise<T>) => (scope ? inScope(scope, work) : work());
      const inOneTransaction = mutating && !definition.ownTransactions;
      const pending = inOneTransaction ? scoped(() => inTransaction(async () => finish(await run()))) : scoped(run);
      const { output, text } = pending instanceof Promise ? await pending : pending;
      if (inOneTransaction) {
        claim = null;
        audited = true;
      }
      response = json(output, successStatus, headerId, headers, text);
      if (claim) {
        // A handler with its own transactions: its response is kept after it, in a commit of its own.
        const kept = claim;
        claim = null;
        await completeIdempotencyKey(kept, toKeep(output));
      }
    } catch (error) {
      // A refusal that knows who was refused (a revoked key, a wrong password) is recorded against them.
      if ((error instanceof ApiError || error instanceof DomainError) && error.actor) audit.actor ??= error.actor;
      response = errorResponse(error, ids);
      if (claim) {
        // What the handler decided (a 409, say) is kept for repeats; a refusal before it, or a failure, is not.
        const keep = handlerRan && response.status < 500 && response.status !== 429;
        try {
          if (keep) await completeIdempotencyKey(claim, { status: response.status, body: await response.clone().json() });
          else await releaseIdempotencyKey(claim);
        } catch (storeError) {
          console.error(`[${requestId}] could not settle Idempotency-Key: ${(storeError as Error).message}`);
        }
      }
    }
    // Every change and every refusal is recorded: mutations (above, with the change, or here when
    // refused), 401 and 403 anywhere, and 404 on a route that names an object (someone probing for ids).
    const probe = response.status === 404 && definition.params !== undefined;
    if (!audited && (mutating || response.status === 401 || response.status === 403 || probe)) {
      await recordAuditEvent(auditEvent(response.status));
    }
    return response;
  };
  // The request's raw reads share one snapshot (lib/db/raw-read.ts).
  const wrapped: Handler<E> = (request, nextContext) => withinContext({ reads: {} }, () => handle(request, nextContext));
  wrapped.endpoint = definition;
  return wrapped;
}

/** A result's checked output and its JSON text (null for 204). */
type Answer = { output: unknown; text: string | null };

/**
 * A handler's result as JSON will carry it: Dates as the ISO strings the response schemas describe,
 * undefined properties gone. What JSON.stringify then JSON.parse would give, without the round trip.
 */
function toWire(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toWire(item)));
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== "function") plain[key] = toWire(item);
  }
  return plain;
}

/** The audit record's details from each source, later ones winning; undefined when there are none. */
function mergedDetails(...parts: (Record<string, unknown> | undefined)[]): Record<string, unknown> | undefined {
  const present = parts.filter((part) => part !== undefined);
  return present.length ? Object.assign({}, ...present) : undefined;
}

const firstString = (values: unknown[]) => values.find((value): value is string => typeof value === "string");

const ALL_METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type RouteHandlers = Partial<Record<Method, Handler>>;
/** A route file's exports: its handlers, each keeping its endpoint's types, and the 405s for the rest. */
type RouteFile<H extends RouteHandlers> = H & Record<Exclude<Method, keyof H> | "OPTIONS", Handler>;

/**
 * Fills in every method a route file does not implement with the contract's 405 (Next.js's own 405
 * has no body): `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: ..., POST: ... })`.
 */
export function methods<H extends RouteHandlers>(handlers: H): RouteFile<H> {
  const allow = [...Object.keys(handlers), "OPTIONS"].join(", ");
  const notAllowed: Handler = async (request) => {
    const requestId = requestIdOf(request);
    return json(
      new ApiError("err_method_not_allowed", `${request.method} is not supported here; use ${allow}`).body(),
      405,
      requestId,
      { Allow: allow },
    );
  };
  const options: Handler = async (request) => json(null, 204, requestIdOf(request), { Allow: allow });
  const result: Record<string, Handler> = { OPTIONS: options };
  for (const method of ALL_METHODS) result[method] = handlers[method] ?? notAllowed;
  return result as RouteFile<H>;
}
