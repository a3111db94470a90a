import { listTransferInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { listTransferInformationRequests } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the information requests raised against the transfer.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listTransferInformationRequestsEndpoint, async ({ params }) =>
    listTransferInformationRequests({ transferId: params.id }),
  ),
});
