import { listAuditEventsEndpoint } from "@/lib/audit/endpoints";
import { listAuditEvents } from "@/lib/audit/audit-events";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the platform's audit trail, cursor-paginated and filterable.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listAuditEventsEndpoint, async ({ query }) => listAuditEvents(query)),
});
