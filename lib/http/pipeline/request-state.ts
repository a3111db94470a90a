import type { AuditActor, Commit } from "@/lib/audit/trail";
import type { Actor, EmployeeActor } from "@/lib/auth/actor";
import type { RateCount } from "@/lib/auth/rate-limit";
import { clientIp } from "@/lib/http/client-ip";
import type { Auth, BodyOf, Endpoint, ParamsOf, QueryOf, ResultOf } from "@/lib/contract/endpoint";
import type { IdempotencyClaim, StoredResponse } from "@/lib/http/idempotency";
import { requestIdsOf, type RequestIds } from "@/lib/http/request-ids";
import type { Scope } from "@/lib/tenancy";

/** Who calls a route: nobody known (public), an employee (session), or either. */
type ActorOf<A extends Auth> = A extends "public" ? null : A extends "session" ? EmployeeActor : Actor;

/** What the audit record should say beyond what the wrapper knows (Context's `audit`). */
export type AuditNote = { actor?: AuditActor; targetId?: string; details?: Record<string, unknown> };

export type Context<E extends Endpoint> = {
  request: Request;
  actor: ActorOf<E["auth"]>;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** A `signedBody` endpoint's body, byte for byte as sent (empty elsewhere). */
  rawBody: Uint8Array;
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
  audit: AuditNote;
  /**
   * For `ownTransactions` handlers: runs their writes in one transaction with the success audit
   * record (optionally naming the actor, once the flow knows who it is). Elsewhere the handler already
   * runs in the request's transaction, and this simply runs `work` in it.
   */
  commit: Commit;
};

export type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };
/** A route file's export as Next.js calls it, carrying its definition (tests and the walks read it). */
export type Handler<E extends Endpoint = Endpoint> = ((request: Request, context: NextContext) => Promise<Response>) & {
  endpoint?: E;
};

/** A route's own code: plain data back (or a promise of it), typed by the endpoint's response schema. */
export type RouteHandler<E extends Endpoint> = (context: Context<E>) => ResultOf<E> | Promise<ResultOf<E>>;

/** A result's checked output and its JSON text (null for 204), or the handler's own Response (`produces`). */
export type Presented = { output: unknown; text: string | null; response?: Response };

/**
 * One request on its way through the stages (lib/http/route.ts): what it is, and what each stage
 * found out so far. A stage reads what the ones before it set and adds its own part.
 */
export type RequestState = {
  readonly definition: Endpoint;
  readonly handler: RouteHandler<Endpoint>;
  readonly request: Request;
  readonly nextContext: NextContext;
  readonly ids: RequestIds;
  readonly ip: string | null;
  /** Not GET, HEAD or OPTIONS: a change, audited whatever its outcome. */
  readonly mutating: boolean;
  /** Runs in the request's one transaction, with its success's records (mutating, and not `ownTransactions`). */
  readonly inOneTransaction: boolean;
  readonly audit: AuditNote;
  actor: Actor | null;
  /** A key's request as its rate limit counted it: every response to it says so (lib/http/rate-limit-headers.ts). */
  rateCount?: RateCount;
  scope: Scope | null;
  params?: Record<string, unknown>;
  query?: unknown;
  /** The body as sent: Idempotency-Key's fingerprint takes it before it is parsed. */
  bodyText: string;
  /** A `signedBody` endpoint's bytes as sent, for the handler to verify before it parses them. */
  bodyBytes?: Uint8Array;
  /** A multipart body's parts by name (a repeated name as a list), before the endpoint's schema judges them. */
  parts?: Record<string, unknown>;
  body?: unknown;
  /** This request's hold on its Idempotency-Key, while it is not settled. */
  claim: IdempotencyClaim | null;
  /** The response kept for an earlier request with the same Idempotency-Key: it is replayed, and the stages stop. */
  replay?: StoredResponse;
  /** Whether the handler began: a refusal before it is never kept for Idempotency-Key repeats. */
  handlerRan: boolean;
  result?: unknown;
  presented?: Presented;
  /** Made only when a handler adds a header (Set-Cookie, say): most never do. */
  headers?: Headers;
  /** The request's transaction committed, and with it what recordWithChange wrote in it. */
  committed: boolean;
  /** An `ownTransactions` commit() committed the success's audit record with its change. */
  auditedByCommit: boolean;
};

/**
 * One step of a request: reads the state, adds to it, or throws the refusal. One with nothing to wait
 * for returns nothing, and is not awaited (lib/http/route.ts).
 */
export type Stage = (state: RequestState) => Promise<void> | void;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A request's state before any stage ran. */
export function stateOf(
  definition: Endpoint,
  handler: RouteHandler<Endpoint>,
  request: Request,
  nextContext: NextContext,
): RequestState {
  const mutating = !SAFE_METHODS.has(request.method);
  return {
    definition,
    handler,
    request,
    nextContext,
    ids: requestIdsOf(request),
    ip: clientIp(request),
    mutating,
    inOneTransaction: mutating && !definition.ownTransactions,
    audit: {},
    actor: null,
    scope: null,
    bodyText: "",
    claim: null,
    handlerRan: false,
    committed: false,
    auditedByCommit: false,
  };
}

/** The status of a success. */
export const successStatusOf = (definition: Endpoint) => definition.status ?? 200;
