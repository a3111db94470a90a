import { getInformationRequestEndpoint } from "@/lib/information-requests/endpoints";
import { getInformationRequest } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one information request with its linked KYC submission.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getInformationRequestEndpoint, async ({ params }) => getInformationRequest({ id: params.id })),
});
