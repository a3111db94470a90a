import { listInformationRequestTimelineEndpoint } from "@/lib/information-requests/endpoints";
import { listInformationRequestTimeline } from "@/lib/information-requests/timeline";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: what happened to the request, oldest first.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listInformationRequestTimelineEndpoint, async ({ params }) =>
    listInformationRequestTimeline({ id: params.id }),
  ),
});
