import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import { validate } from "@/lib/http/pipeline/validate";

/** Sandbox routes exist only with SANDBOX=on; the path's params, before anything else (a malformed id is a 404). */
export async function parsePath(state: RequestState): Promise<void> {
  const { definition, request } = state;
  if (definition.sandbox && env().SANDBOX === "off") {
    throw new ApiError("err_not_found", `No route ${new URL(request.url).pathname}`);
  }
  if (definition.params) {
    const rawParams = Object.fromEntries(
      Object.entries((await state.nextContext?.params) ?? {}).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.join("/") : value,
      ]),
    );
    state.params = validate(definition.params, rawParams, "params") as Record<string, unknown>;
  }
}
