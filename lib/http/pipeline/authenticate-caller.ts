import { authenticate } from "@/lib/auth/actor";
import { isSameOrigin } from "@/lib/http/csrf";
import { ApiError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";

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
  if (actor.type === "employee" && mutating && !isSameOrigin(request, { requireProof: true })) {
    throw new ApiError("err_forbidden", "Cross-site request refused: send it from the dashboard's own origin");
  }
  if (definition.auth === "session" && actor.type !== "employee") {
    throw new ApiError("err_forbidden", "This route acts for a signed-in employee; API keys cannot use it");
  }
}
