import { authenticate } from "@/lib/auth/actor";
import { isSameOrigin } from "@/lib/http/csrf";
import { ApiError } from "@/lib/http/api-error";
import { DomainError } from "@/lib/errors";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import type { Actor } from "@/lib/auth/actor";
import { takeRateLimitSlot } from "@/lib/auth/rate-limit";

/** Who calls (nobody on a public route), refusing cross-site changes and API keys on session-only routes. */
export async function authenticateCaller(state: RequestState): Promise<void> {
  const { definition, request, mutating } = state;
  if (definition.auth === "public") {
    if (mutating && !isSameOrigin(request, { requireProof: false })) {
      throw new ApiError("err_forbidden", "Cross-site request refused");
    }
    return;
  }
  const actor = await authenticate(request, state.ip);
  state.actor = actor;
  if (actor.type === "api_key") await enforceKeyRateLimit(state, actor);
  if (actor.type === "employee" && mutating && !isSameOrigin(request, { requireProof: true })) {
    throw new ApiError("err_forbidden", "Cross-site request refused: send it from the dashboard's own origin");
  }
  if (definition.auth === "session" && actor.type !== "employee") {
    throw new ApiError("err_forbidden", "This route acts for a signed-in employee; API keys cannot use it");
  }
}

/** Counts a key's request in its rate limit's window; past the limit, 429 with Retry-After (the window's end). */
async function enforceKeyRateLimit(state: RequestState, key: Extract<Actor, { type: "api_key" }>): Promise<void> {
  const counted = await takeRateLimitSlot(key.id, key.rateLimit, Date.now());
  state.rateCount = counted;
  if (counted.admitted) return;
  const { requests, perSeconds } = key.rateLimit;
  throw new DomainError(
    "rate_limited",
    `This API key may send ${requests} requests per ${perSeconds} s; try again in ${counted.resetSeconds} s`,
    undefined,
    { retryAfter: counted.resetSeconds },
  );
}
