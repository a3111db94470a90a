import type { RequestState } from "@/lib/http/pipeline/request-state";
import { scopeFor } from "@/lib/tenancy";

/** The tenant the request acts in: the caller's own account, or the one Service-Account-Id names. */
export function scopeRequest(state: RequestState): Promise<void> | void {
  const { actor } = state;
  if (!actor) return;
  const scope = scopeFor(actor, state.request.headers.get("service-account-id"));
  if (!(scope instanceof Promise)) state.scope = scope;
  else return scope.then((named) => void (state.scope = named));
}
