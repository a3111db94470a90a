import { createHash } from "node:crypto";
import { prototypeKeyIssues } from "@/lib/contract/text";
import { ApiError, validationError } from "@/lib/http/api-error";
import { readBodyBytes } from "@/lib/http/pipeline/read-body-bytes";
import type { RequestState } from "@/lib/http/pipeline/request-state";

/** Room for the multipart framing around a file (boundaries, part headers, a few small fields). */
const FRAMING_ALLOWANCE = 64 * 1024;

/**
 * A multipart/form-data body (a `multipart` endpoint's upload): its parts for the endpoint's schema,
 * and for Idempotency-Key's fingerprint what they hold (not how a client framed them: a retry may
 * choose another boundary). Nothing is parsed before the whole body was read within the limit, so a
 * refused or broken upload leaves nothing behind.
 */
export async function readUpload(state: RequestState, { maxFileBytes }: { maxFileBytes: number }): Promise<void> {
  const { request } = state;
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new ApiError("err_unsupported_media_type", "Send the body as multipart/form-data", {
      body: "must be multipart/form-data with a `file` part",
    });
  }
  const tooLarge = () =>
    new ApiError("err_payload_too_large", `The file is larger than ${maxFileBytes} bytes`, {
      file: `must be at most ${maxFileBytes} bytes`,
    });
  const bytes = await readBodyBytes(request, maxFileBytes + FRAMING_ALLOWANCE, tooLarge);
  let form: FormData;
  try {
    form = await new Response(bytes, {
      headers: { "content-type": type },
    }).formData();
  } catch {
    throw new ApiError("err_bad_request", "The body is not valid multipart/form-data");
  }
  const parts: Record<string, unknown> = Object.create(null);
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    if (values.some((value) => typeof value !== "string" && value.size > maxFileBytes)) throw tooLarge();
    parts[name] = values.length > 1 ? values : values[0];
  }
  const prototypeKeys = prototypeKeyIssues(parts);
  if (prototypeKeys.length) throw validationError(prototypeKeys);
  state.parts = parts;
  state.bodyText = JSON.stringify(await Promise.all([...form].map(describePart)));
}

const describePart = async ([name, value]: [string, FormDataEntryValue]) =>
  typeof value === "string"
    ? [name, value]
    : [
        name,
        value.name,
        value.type,
        createHash("sha256")
          .update(Buffer.from(await value.arrayBuffer()))
          .digest("hex"),
      ];
