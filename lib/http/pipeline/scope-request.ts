import type { RequestState } from "@/lib/http/pipeline/request-state";
import { scopeFor } from "@/lib/tenancy";

/** The tenant the request acts in: the caller's own account, or the one Service-Account-Id names. */
export async function scopeRequest(state: RequestState): Promise<void> {
  if (state.actor) state.scope = await scopeFor(state.actor, state.request.headers.get("service-account-id"));
}
