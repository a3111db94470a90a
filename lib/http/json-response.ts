/** A JSON response as every /v1 answer goes out: never cached, naming its request id; `text` is the body already serialized (null for 204). */
export function toJsonResponse(
  body: unknown,
  status: number,
  requestId: string,
  extra?: HeadersInit,
  text = status === 204 ? null : JSON.stringify(body),
): Response {
  const response = new Response(text, {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
  });
  if (extra) {
    for (const [name, value] of extra instanceof Headers ? extra : new Headers(extra)) {
      if (!OWN_HEADERS.has(name)) response.headers.append(name, value);
    }
  }
  return response;
}

/** Set by toJsonResponse() itself; a handler's headers cannot replace them. */
const OWN_HEADERS = new Set(["content-type", "cache-control", "x-request-id"]);
