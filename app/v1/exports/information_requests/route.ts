import { exportInformationRequestsEndpoint } from "@/lib/exports/endpoints";
import { exportInformationRequests } from "@/lib/exports/information-requests";
import { auditCallerOf } from "@/lib/http/audit-caller";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the information requests as a CSV attachment, with the list's filters and sort; audited with its row count when it ends.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(exportInformationRequestsEndpoint, (context) =>
    exportInformationRequests({ query: context.query, caller: context.actor, by: auditCallerOf(context) }),
  ),
});
