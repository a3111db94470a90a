import { authorize } from "@/lib/auth/authorize";
import type { RequestState } from "@/lib/http/pipeline/request-state";

/** The endpoint's permission, checked against the caller's role or key (lib/auth/authorize.ts). */
export function authorizeCaller(state: RequestState): void {
  if (state.actor) authorize(state.definition, state.actor);
}
