import { updateInformationRequestStatusEndpoint } from "@/lib/information-requests/endpoints";
import { updateInformationRequestStatus } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: move the request along its state machine (employees only).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateInformationRequestStatusEndpoint, async ({ actor, params, body }) =>
    updateInformationRequestStatus({
      id: params.id,
      status: body.status,
      reasonCode: body.reasonCode,
      reason: body.reason,
      by: { employeeId: actor.id, fourEyesApproval: actor.type === "employee" && actor.settings.fourEyesApproval },
    }),
  ),
});
