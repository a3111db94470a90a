import { countKeyUsage } from "@/lib/api-keys/usage";
import { recordAuditEvent, writeAuditEvent, type AuditEventInput } from "@/lib/audit/trail";
import { ApiError } from "@/lib/http/api-error";
import { DomainError } from "@/lib/errors";
import type { Endpoint } from "@/lib/contract/endpoint";
import { errorResponse } from "@/lib/http/error-response";
import {
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type KeptResponse,
  type StoredResponse,
} from "@/lib/http/idempotency";
import { toJsonResponse } from "@/lib/http/json-response";
import { successStatusOf, type RequestState } from "@/lib/http/pipeline/request-state";
import { headerIdOf } from "@/lib/http/request-ids";
import { countMetric } from "@/lib/observability/count";
import { noteRequest } from "@/lib/observability/request-notes";
import { activeTraceId } from "@/lib/observability/tracing";
import { setRateLimitHeaders } from "@/lib/http/rate-limit-headers";

// What a request leaves behind, its audit record and its Idempotency-Key's fate, is written here and
// nowhere else: by settle() once the stages are over, for a success, a refusal and a replay alike, or
// with the change, in its transaction (recordWithChange, an ownTransactions commit), which settle() then counts.

/**
 * The response, with the request's records: the claim kept or released, and an audit record for every
 * change and every refusal that none was committed for with the change. `thrown`: what a stage threw.
 */
export async function settle(state: RequestState, thrown?: { error: unknown }): Promise<Response> {
  const response = thrown
    ? await refuse(state, thrown.error)
    : state.replay
      ? replay(state, state.replay)
      : await succeed(state);
  if (state.rateCount) setRateLimitHeaders(response.headers, state.rateCount);
  // Every change and every refusal is recorded: mutations (with the change, or here when refused),
  // 401 and 403 anywhere, and 404 on a route that names an object (someone probing for ids).
  const probe = response.status === 404 && state.definition.params !== undefined;
  const audited = state.committed || state.auditedByCommit;
  if (!audited && (state.mutating || response.status === 401 || response.status === 403 || probe)) {
    await recordAuditEvent(auditEventOf(state, response.status, state.replay && { idempotentReplay: true }));
  }
  const keyId = keyOfRequest(state, thrown?.error);
  // A Map increment: the counts reach the database in batches (lib/api-keys/usage.ts).
  if (keyId !== null) countKeyUsage(keyId, response.status);
  if (keyId !== null && response.status === 429) countMetric("api_key_rate_limited_total");
  noteRequest(state.ids.requestId, { actor: state.actor?.id ?? keyId, traceId: activeTraceId() });
  return response;
}

/** The key that made the request, or that was refused (revoked, expired, from an address not allowed): whose usage it is. */
function keyOfRequest(state: RequestState, error: unknown): string | null {
  if (state.actor) return state.actor.type === "api_key" ? state.actor.id : null;
  const refused = error instanceof ApiError || error instanceof DomainError ? error.actor : undefined;
  return refused?.type === "api_key" ? refused.id : null;
}

/**
 * The last stage in the request's transaction: the success's kept response and audit record, which
 * commit with the change or not at all (settle() counts them once the transaction committed).
 */
export async function recordWithChange(state: RequestState): Promise<void> {
  if (!state.inOneTransaction) return;
  if (state.claim) await completeIdempotencyKey(state.claim, keptOf(state.definition, state.presented!.output));
  await writeSuccessRecord(state);
}

/** The success's audit record, in the caller's transaction (recordWithChange, an ownTransactions commit). */
export const writeSuccessRecord = (state: RequestState) =>
  writeAuditEvent(auditEventOf(state, successStatusOf(state.definition)));

const replay = (state: RequestState, kept: StoredResponse) =>
  toJsonResponse(kept.body, kept.status, headerIdOf(state.ids), { "Idempotent-Replayed": "true" });

async function succeed(state: RequestState): Promise<Response> {
  const { output, text, response: own } = state.presented!;
  if (own) return withOwnHeaders(own, headerIdOf(state.ids), state.headers);
  const response = toJsonResponse(
    output,
    successStatusOf(state.definition),
    headerIdOf(state.ids),
    state.headers,
    text,
  );
  const claim = openClaimOf(state);
  if (!claim) return response;
  // A handler with its own transactions: its response is kept after it, in a commit of its own.
  state.claim = null;
  try {
    await completeIdempotencyKey(claim, keptOf(state.definition, output));
  } catch (error) {
    return refuse(state, error);
  }
  return response;
}

/** A handler's own Response (`produces`) as every /v1 answer goes out: naming its request id, never cached unless it says. */
function withOwnHeaders(response: Response, requestId: string, extra?: Headers): Response {
  for (const [name, value] of extra ?? []) response.headers.append(name, value);
  response.headers.set("X-Request-Id", requestId);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}

async function refuse(state: RequestState, error: unknown): Promise<Response> {
  // A refusal that knows who was refused (a revoked key, a wrong password) is recorded against them.
  if ((error instanceof ApiError || error instanceof DomainError) && error.actor) state.audit.actor ??= error.actor;
  const response = errorResponse(error, state.ids);
  const claim = openClaimOf(state);
  if (!claim) return response;
  // What the handler decided (a 409, say) is kept for repeats; a refusal before it, or a failure, is not.
  const keep = state.handlerRan && response.status < 500 && response.status !== 429;
  try {
    if (keep) await completeIdempotencyKey(claim, { status: response.status, body: await response.clone().json() });
    else await releaseIdempotencyKey(claim);
  } catch (storeError) {
    console.error(`[${state.ids.requestId}] could not settle Idempotency-Key: ${(storeError as Error).message}`);
  }
  return response;
}

/** The claim still to settle: none once the request's transaction committed its kept response. */
const openClaimOf = (state: RequestState) => (state.committed ? null : state.claim);

/** What Idempotency-Key repeats get: the response, or a refusal when it held a secret shown once. */
const keptOf = (definition: Endpoint, output: unknown): KeptResponse =>
  definition.secretResponse
    ? { status: successStatusOf(definition), heldSecret: true }
    : { status: successStatusOf(definition), body: output };

function auditEventOf(state: RequestState, status: number, details?: Record<string, unknown>): AuditEventInput {
  const { actor, audit, definition, body, ids } = state;
  const resultId = (state.result as { id?: unknown } | null)?.id;
  return {
    actor: actor
      ? { type: actor.type, id: actor.id, platformId: actor.platformId, accountId: actor.accountId }
      : (audit.actor ?? null),
    actedForAccountId: state.scope?.accountId ?? null,
    action: definition.action ?? `${definition.method} ${definition.path}`,
    targetId:
      audit.targetId ??
      firstString(Object.values(state.params ?? {})) ??
      (typeof resultId === "string" ? resultId : null),
    ip: state.ip,
    status,
    requestId: ids.requestId,
    clientRequestId: ids.clientRequestId,
    details: mergeDetails(
      body && definition.auditDetails ? definition.auditDetails(body) : undefined,
      status < 400 ? audit.details : undefined,
      details,
    ),
  };
}

/** The audit record's details from each source, later ones winning; undefined when there are none. */
function mergeDetails(...parts: (Record<string, unknown> | undefined)[]): Record<string, unknown> | undefined {
  const present = parts.filter((part) => part !== undefined);
  return present.length ? Object.assign({}, ...present) : undefined;
}

const firstString = (values: unknown[]) => values.find((value): value is string => typeof value === "string");
