import { ApiError } from "@/lib/http/api-error";
import { errorResponse, requestIdsOf } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Every method on an unknown /v1 path: the contract's 404 body instead of an HTML page.
async function unknownRoute(request: Request) {
  const path = new URL(request.url).pathname;
  return errorResponse(new ApiError("err_not_found", `No route ${path}`), requestIdsOf(request));
}

export {
  unknownRoute as GET,
  unknownRoute as POST,
  unknownRoute as PUT,
  unknownRoute as PATCH,
  unknownRoute as DELETE,
};
