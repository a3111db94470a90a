import type { AuditActor } from "@/lib/audit/trail";
import type { Actor } from "@/lib/auth/actor";
import { requestIdsOf } from "@/lib/http/request-ids";
import type { Scope } from "@/lib/tenancy";

/** Who made a request, as an audit record written after its answer went out names them (an export's, once its stream ended). */
export type AuditCaller = {
  actor: AuditActor;
  scope: Scope;
  ip: string | null;
  requestId: string;
  clientRequestId: string | null;
};

/** The caller of a signed-in request (key or session), from its handler's context. */
export function auditCallerOf({
  actor,
  scope,
  ip,
  requestId,
  request,
}: {
  actor: Actor;
  scope: Scope;
  ip: string | null;
  requestId: string;
  request: Request;
}): AuditCaller {
  return {
    actor: { type: actor.type, id: actor.id, platformId: actor.platformId, accountId: actor.accountId },
    scope,
    ip,
    requestId,
    clientRequestId: requestIdsOf(request).clientRequestId,
  };
}
