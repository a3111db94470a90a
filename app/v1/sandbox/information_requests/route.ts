import { raiseSandboxInformationRequestEndpoint } from "@/lib/information-requests/endpoints";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: raise a `requested` information request (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(raiseSandboxInformationRequestEndpoint, async ({ body }) => raiseInformationRequest(body)),
});
