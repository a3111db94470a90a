import { randomHex } from "@/lib/ids/generate";
import { CLIENT_REQUEST_ID } from "@/lib/http/edge.mjs";

/**
 * A request's ids. `requestId` is the server's own (`req_...`): the audit trail, the log, an error
 * body's `request_id` and a 500's message name it, since a client chooses its own id and could pass
 * off one of another request. `clientRequestId` is the X-Request-Id the client sent (1 to 128 visible
 * ASCII characters), kept apart in the audit trail; null when it sent none (server.mjs passes the
 * client's header through untouched).
 */
export type RequestIds = { requestId: string; clientRequestId: string | null };

export function requestIdsOf(request: Request): RequestIds {
  const given = request.headers.get("x-request-id");
  return {
    requestId: `req_${randomHex(12)}`,
    clientRequestId: given && CLIENT_REQUEST_ID.test(given) ? given : null,
  };
}

/** The response's X-Request-Id: the client's sane one echoed (CONTRACT.md, "Conventions"), else the server's own. */
export const headerIdOf = (ids: RequestIds) => ids.clientRequestId ?? ids.requestId;

/** The X-Request-Id a response to `request` carries, for answers that neither log nor audit (404 of no route, 405). */
export const requestIdOf = (request: Request): string => headerIdOf(requestIdsOf(request));
