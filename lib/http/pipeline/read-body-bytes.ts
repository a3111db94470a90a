import { ApiError } from "@/lib/http/api-error";

/**
 * The body's bytes, at most `limit` of them: a Content-Length above it is refused before a byte is
 * read, and a body without one (chunked) or that lies is cut off as soon as it passes the limit.
 */
export async function readBodyBytes(
  request: Request,
  limit: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client closed the connection mid-body ("aborted"): nobody is left to read a reply, and it is no fault of ours to log.
      throw new ApiError("err_bad_request", "The body ended before it was complete");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  // Node's Buffer.concat copies into a fresh (never shared) ArrayBuffer.
  return Buffer.concat(chunks) as Uint8Array<ArrayBuffer>;
}
