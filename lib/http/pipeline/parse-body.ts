import { ApiError, validationError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import { validate } from "@/lib/http/pipeline/validate";
import { prototypeKeyIssues } from "@/lib/contract/text";

/** The body, as JSON (or a multipart body's parts) through the endpoint's schema (none without one). */
export async function parseBody(state: RequestState): Promise<void> {
  const { definition, request } = state;
  if (definition.multipart) state.body = validate(definition.body, state.parts);
  else if (definition.body) state.body = validate(definition.body, parseJsonBody(request, state.bodyText));
}

function parseJsonBody(request: Request, text: string): unknown {
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("err_bad_request", "Send the body as JSON with Content-Type: application/json");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("err_bad_request", "The body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ApiError("err_bad_request", "The body must be a JSON object");
  }
  // JSON.parse makes "__proto__" an own property, which zod would drop without a word: refuse it (and its kin) anywhere.
  const prototypeKeys = prototypeKeyIssues(parsed);
  if (prototypeKeys.length) throw validationError(prototypeKeys);
  return parsed;
}
