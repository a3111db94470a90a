import type { Endpoint } from "@/lib/contract/endpoint";
import { authenticateCaller } from "@/lib/http/pipeline/authenticate-caller";
import { authorizeCaller } from "@/lib/http/pipeline/authorize-caller";
import { checkTotp } from "@/lib/http/pipeline/check-totp";
import { claimIdempotency } from "@/lib/http/pipeline/claim-idempotency";
import { parseBody } from "@/lib/http/pipeline/parse-body";
import { parsePath } from "@/lib/http/pipeline/parse-path";
import { parseQuery } from "@/lib/http/pipeline/parse-query";
import { present } from "@/lib/http/pipeline/present";
import { readBody } from "@/lib/http/pipeline/read-body";
import { run } from "@/lib/http/pipeline/run";
import { scopeRequest } from "@/lib/http/pipeline/scope-request";
import { recordWithChange, settle } from "@/lib/http/pipeline/settle";
import {
  stateOf,
  type Handler,
  type RequestState,
  type RouteHandler,
  type Stage,
} from "@/lib/http/pipeline/request-state";
import { inRequestTransaction } from "@/lib/http/pipeline/in-request-transaction";

export type { Context, Handler } from "@/lib/http/pipeline/request-state";
export { errorResponse } from "@/lib/http/error-response";
export { methods } from "@/lib/http/methods";
export { requestIdOf, requestIdsOf, type RequestIds } from "@/lib/http/request-ids";

/**
 * A request, top to bottom. Each stage (lib/http/pipeline/) reads what the ones before it found and adds
 * its part. `for`: the endpoints a stage has work on, when not all; it would do nothing for the others,
 * which skip it (route() picks each endpoint's stages once: an await less per request for each).
 */
const STAGES: { stage: Stage; for?: (definition: Endpoint) => boolean }[] = [
  // sandbox routes; the path's params (a malformed id is a 404)
  { stage: parsePath, for: (definition) => Boolean(definition.sandbox || definition.params) },
  { stage: authenticateCaller }, // who calls; CSRF; session-only routes
  { stage: authorizeCaller }, // the endpoint's permission
  { stage: scopeRequest }, // the tenant it acts in
  { stage: parseQuery },
  {
    stage: readBody,
    for: (definition) =>
      Boolean(definition.multipart || definition.signedBody || definition.body) || definition.method === "POST",
  },
  // or the kept response of an earlier request with its key: replayed, and the stages stop
  { stage: claimIdempotency, for: (definition) => definition.method === "POST" },
  { stage: parseBody, for: (definition) => Boolean(definition.multipart || definition.body) },
  { stage: checkTotp, for: (definition) => Boolean(definition.totp) }, // Service-Totp-Code step-up
  { stage: inRequestTransaction(run, present, recordWithChange) },
];
// settle() then writes what the request leaves behind, once: its audit record and its Idempotency-Key's fate.

/**
 * The one wrapper every /v1 handler goes through: request id, authentication, CSRF, the
 * Service-Totp-Code rule, input validation, Idempotency-Key, output filtering, error mapping and the
 * audit trail. Handlers return plain data, typed by the endpoint's response schema (Dates allowed
 * for its date-time strings), which the answer passes through. A mutating handler runs in one database transaction with
 * its audit record (and its kept idempotent response): all of it commits, or none of it.
 */
export function route<E extends Endpoint>(definition: E, handler: RouteHandler<E>): Handler<E> {
  const stages = STAGES.filter((step) => step.for?.(definition) ?? true).map((step) => step.stage);
  const wrapped: Handler<E> = (request, nextContext) =>
    handle(stateOf(definition, handler as RouteHandler<Endpoint>, request, nextContext), stages);
  wrapped.endpoint = definition;
  return wrapped;
}

async function handle(state: RequestState, stages: readonly Stage[]): Promise<Response> {
  try {
    for (const stage of stages) {
      if (state.replay) break;
      const pending = stage(state);
      if (pending) await pending;
    }
  } catch (error) {
    return settle(state, { error });
  }
  return settle(state);
}
