import type { Commit } from "@/lib/audit/trail";
import { inTransaction } from "@/lib/db";
import { writeSuccessRecord } from "@/lib/http/pipeline/settle";
import type { Context, RequestState } from "@/lib/http/pipeline/request-state";

const EMPTY = new Uint8Array(0);

/** The route's own handler, given the request as the stages before it made it. */
export async function run(state: RequestState): Promise<void> {
  const context: Context<typeof state.definition> = {
    request: state.request,
    actor: state.actor,
    scope: state.scope,
    params: state.params,
    query: state.query,
    body: state.body,
    rawBody: state.bodyBytes ?? EMPTY,
    ip: state.ip,
    requestId: state.ids.requestId,
    get headers() {
      return (state.headers ??= new Headers());
    },
    audit: state.audit,
    commit: commitOf(state),
  } as Context<typeof state.definition>;
  state.handlerRan = true;
  state.result = await state.handler(context);
}

/**
 * An `ownTransactions` handler's commit: its writes and the success's audit record in one transaction,
 * audited once it commits. Elsewhere the handler already runs in the request's transaction.
 */
function commitOf(state: RequestState): Commit {
  if (!state.definition.ownTransactions) return (work) => work();
  return async (work, who) => {
    const committed = await inTransaction(async () => {
      const done = await work();
      const named = typeof who === "function" ? who(done) : who;
      if (named) {
        state.audit.actor = named;
        state.audit.targetId ??= named.id;
      }
      await writeSuccessRecord(state);
      return done;
    });
    state.auditedByCommit = true;
    return committed;
  };
}
