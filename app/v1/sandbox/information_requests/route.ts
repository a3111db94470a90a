import { raiseSandboxInformationRequestEndpoint } from "@/lib/information-requests/endpoints";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

// POST: raise a `requested` information request (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(raiseSandboxInformationRequestEndpoint, async ({ body }) => raiseInformationRequest(body)),
});
