import { randomHex } from "@/lib/ids/generate";
import {
  CLIENT_REQUEST_ID,
  SERVER_REQUEST_ID,
  SERVER_REQUEST_ID_HEADER,
  SERVER_REQUEST_IDS,
} from "@/lib/http/edge.mjs";

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
    requestId: serverRequestIdOf(request) ?? `req_${randomHex(12)}`,
    clientRequestId: given && CLIENT_REQUEST_ID.test(given) ? given : null,
  };
}

/**
 * The id server.mjs gave the request, when it is in front (it sets the header over any client's, and the
 * flag once): its X-Request-Id, its log and the app's answer then name one id. Under `next dev` or in
 * tests, where nothing sets the flag, a client's header of that name is never believed.
 */
function serverRequestIdOf(request: Request): string | null {
  if ((globalThis as Record<symbol, unknown>)[SERVER_REQUEST_IDS] !== true) return null;
  const id = request.headers.get(SERVER_REQUEST_ID_HEADER);
  return id && SERVER_REQUEST_ID.test(id) ? id : null;
}

/** The response's X-Request-Id: the client's sane one echoed (docs/api.md, Conventions), else the server's own. */
export const headerIdOf = (ids: RequestIds) => ids.clientRequestId ?? ids.requestId;

/** The X-Request-Id a response to `request` carries, for answers that neither log nor audit (404 of no route, 405). */
export const requestIdOf = (request: Request): string => headerIdOf(requestIdsOf(request));
