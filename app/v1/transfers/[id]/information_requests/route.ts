import { listTransferInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { listTransferInformationRequests } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

// GET: the information requests raised against the transfer.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listTransferInformationRequestsEndpoint, async ({ params }) => listTransferInformationRequests({ transferId: params.id })),
});
