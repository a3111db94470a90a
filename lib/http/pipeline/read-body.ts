import { ApiError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import { readBodyBytes } from "@/lib/http/pipeline/read-body-bytes";
import { readUpload } from "@/lib/http/pipeline/read-upload";

const MAX_BODY_BYTES = 1024 * 1024;
const tooLarge = () => new ApiError("err_bad_request", "The body is larger than 1 MiB");

/** The body's text, read before the Idempotency-Key claim (its fingerprint holds it) and parsed after it (a replay needs none). */
export async function readBody(state: RequestState): Promise<void> {
  const { definition, request } = state;
  if (definition.multipart) return readUpload(state, definition.multipart);
  if (definition.signedBody) {
    state.bodyBytes = await readBodyBytes(request, MAX_BODY_BYTES, tooLarge);
    return;
  }
  if (definition.body || request.method === "POST") state.bodyText = await readBodyText(request);
}

/** The body as text, refused past MAX_BODY_BYTES bytes without reading further (Content-Length can lie or be absent), and unless it is UTF-8. */
async function readBodyText(request: Request): Promise<string> {
  const bytes = await readBodyBytes(request, MAX_BODY_BYTES, tooLarge);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError("err_bad_request", "The body is not valid UTF-8");
  }
}

/**
 * Refuses bytes that are not UTF-8 (Buffer.toString would store them as U+FFFD without a word). A
 * byte order mark stays a character, so JSON.parse refuses it as before (RFC 8259: never send one).
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
