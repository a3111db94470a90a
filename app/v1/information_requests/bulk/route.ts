import { writeAuditEvent, recordAuditEvent, type AuditEventInput } from "@/lib/audit/trail";
import { notifyAssignee } from "@/lib/information-requests/assignment-notice";
import { bulkUpdateInformationRequests, type BulkItemRecord } from "@/lib/information-requests/bulk";
import { bulkInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { errorResponse } from "@/lib/http/error-response";
import { publicOrigin } from "@/lib/http/public-origin";
import { requestIdsOf } from "@/lib/http/request-ids";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: assign, or change the status of, up to 100 requests, each as if sent alone (its own audit record).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(bulkInformationRequestsEndpoint, async ({ actor, body, scope, request, ip, requestId }) => {
    const ids = { requestId, clientRequestId: requestIdsOf(request).clientRequestId };
    // Each item's record is the one its own endpoint would write: the same action, target, status and details.
    const recordOf = (item: BulkItemRecord, status: number): AuditEventInput => ({
      actor: { type: actor.type, id: actor.id, platformId: actor.platformId, accountId: actor.accountId },
      actedForAccountId: scope.accountId,
      ...item,
      ip,
      status,
      requestId,
      clientRequestId: ids.clientRequestId,
    });
    const outcomes = await bulkUpdateInformationRequests({
      input: body,
      by: actor,
      decider:
        actor.type === "employee" ? { employeeId: actor.id, fourEyesApproval: actor.settings.fourEyesApproval } : null,
      audit: {
        applied: (item) => writeAuditEvent(recordOf(item, 200)),
        async refused(item, error) {
          // The answer the item would have got alone (an unexpected error is logged there, under this request's id).
          const response = errorResponse(error, ids);
          const { error_code, message } = (await response.json()) as { error_code: string; message: string };
          await recordAuditEvent(recordOf(item, response.status));
          return { error_code, message };
        },
      },
    });
    const origin = publicOrigin(request);
    for (const outcome of outcomes) {
      if (outcome.ok && outcome.request) {
        await notifyAssignee({ assignee: outcome.newAssignee, request: outcome.request, by: actor, origin, scope });
      }
    }
    return {
      results: outcomes.map((outcome) =>
        outcome.ok ? { id: outcome.id, ok: true } : { id: outcome.id, ok: false, error: outcome.error },
      ),
    };
  }),
});
