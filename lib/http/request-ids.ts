import { randomHex } from "@/lib/ids/generate";

/**
 * A request's ids. `requestId` is the server's own (`req_...`): the audit trail, the log and a 500's
 * message name it, since a client chooses its own id and could pass off one of another request.
 * `clientRequestId` is the client's X-Request-Id when it sent a sane one, kept apart in the audit trail.
 */
export type RequestIds = { requestId: string; clientRequestId: string | null };

export function requestIdsOf(request: Request): RequestIds {
  const given = request.headers.get("x-request-id");
  return {
    requestId: `req_${randomHex(12)}`,
    clientRequestId: given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : null,
  };
}

/** The response's X-Request-Id: the client's sane one echoed (CONTRACT.md, "Conventions"), else the server's own. */
export const headerIdOf = (ids: RequestIds) => ids.clientRequestId ?? ids.requestId;

/** The X-Request-Id a response to `request` carries, for answers that neither log nor audit (404 of no route, 405). */
export const requestIdOf = (request: Request): string => headerIdOf(requestIdsOf(request));
