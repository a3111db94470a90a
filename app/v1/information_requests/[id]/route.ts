import { getInformationRequestEndpoint, updateInformationRequestEndpoint } from "@/lib/information-requests/endpoints";
import { notifyAssignee } from "@/lib/information-requests/assignment-notice";
import { getInformationRequest, updateInformationRequest } from "@/lib/information-requests/information-requests";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one information request with its linked KYC submission.
// POST: assign it (or unassign it) and set its priority; the new assignee is e-mailed once it committed.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getInformationRequestEndpoint, async ({ params }) => getInformationRequest({ id: params.id })),
  POST: route(updateInformationRequestEndpoint, async ({ actor, params, body, scope, request, audit, commit }) => {
    const done = await commit(async () => {
      const result = await updateInformationRequest({ id: params.id, ...body, by: actor });
      audit.details = {
        before: result.before,
        after: { assigneeId: result.request.assigneeId, priority: result.request.priority },
      };
      return result;
    });
    await notifyAssignee({
      assignee: done.newAssignee,
      request: done.request,
      by: actor,
      origin: publicOrigin(request),
      scope,
    });
    return done.request;
  }),
});
