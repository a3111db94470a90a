import { inTransaction } from "@/lib/db";
import type { RequestState, Stage } from "@/lib/http/pipeline/request-state";
import { withScope } from "@/lib/tenancy";

/**
 * Runs `stages` in the request's tenant scope and, on a mutating route that does not run its own
 * transactions, in one database transaction: the change, its answer and its records commit together,
 * or none of them. What they wrote counts only once it committed, since what runs at COMMIT can still refuse.
 */
export function inRequestTransaction(...stages: Stage[]): Stage {
  return async (state: RequestState) => {
    const runStages = async () => {
      for (const stage of stages) {
        const pending = stage(state);
        if (pending) await pending;
      }
    };
    const work = state.inOneTransaction ? () => inTransaction(runStages) : runStages;
    await (state.scope ? withScope(state.scope, work) : work());
    if (state.inOneTransaction) state.committed = true;
  };
}
