import { listInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { listInformationRequests } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of information requests (the work queue), filtered and sorted.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listInformationRequestsEndpoint, async ({ query, actor }) =>
    listInformationRequests({ query, caller: actor }),
  ),
});
