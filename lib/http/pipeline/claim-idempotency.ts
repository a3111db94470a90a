import { claimIdempotencyKey, fingerprintOf, idempotencyKeyOf } from "@/lib/http/idempotency";
import type { RequestState } from "@/lib/http/pipeline/request-state";

/**
 * A POST's Idempotency-Key: claimed for this request (settle() keeps or releases it), or, when an
 * earlier request with the same key and body was answered, that answer to replay.
 */
export async function claimIdempotency(state: RequestState): Promise<void> {
  const { request, actor } = state;
  // Idempotency-Key binds to a credential, so public routes (sign-in, setup) have none to bind to.
  if (request.method !== "POST" || !actor) return;
  const key = idempotencyKeyOf(request);
  if (!key) return;
  const fingerprint = fingerprintOf({
    method: request.method,
    url: request.url,
    serviceAccountId: state.scope?.accountId ?? null,
    body: state.bodyText,
  });
  // Throws 409/422 for a key in use by another request: that claim is not ours to settle.
  const claimed = await claimIdempotencyKey({ credential: `${actor.type}:${actor.id}`, key, fingerprint });
  if ("claim" in claimed) state.claim = claimed.claim;
  else state.replay = claimed.kept;
}
