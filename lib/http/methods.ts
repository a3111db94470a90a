import { ApiError } from "@/lib/http/api-error";
import type { Method } from "@/lib/contract/endpoint";
import { toJsonResponse } from "@/lib/http/json-response";
import type { Handler } from "@/lib/http/pipeline/request-state";
import { headerIdOf, requestIdOf, requestIdsOf } from "@/lib/http/request-ids";

const ALL_METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type RouteHandlers = Partial<Record<Method, Handler>>;
/** A route file's exports: its handlers, each keeping its endpoint's types, and the 405s for the rest. */
type RouteFile<H extends RouteHandlers> = H & Record<Exclude<Method, keyof H> | "OPTIONS", Handler>;

/**
 * Fills in every method a route file does not implement with the contract's 405 (Next.js's own 405
 * has no body): `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: ..., POST: ... })`.
 */
export function methods<H extends RouteHandlers>(handlers: H): RouteFile<H> {
  const allow = [...Object.keys(handlers), "OPTIONS"].join(", ");
  const notAllowed: Handler = async (request) => {
    const ids = requestIdsOf(request);
    return toJsonResponse(
      new ApiError("err_method_not_allowed", `${request.method} is not supported here; use ${allow}`).body(
        ids.requestId,
      ),
      405,
      headerIdOf(ids),
      { Allow: allow },
    );
  };
  const options: Handler = async (request) => toJsonResponse(null, 204, requestIdOf(request), { Allow: allow });
  const result: Record<string, Handler> = { OPTIONS: options };
  for (const method of ALL_METHODS) result[method] = handlers[method] ?? notAllowed;
  return result as RouteFile<H>;
}
