import type { z } from "zod";
import { ApiError, validationError } from "@/lib/http/api-error";

/** `input` as `schema` parses it (undefined when there is no schema); a refusal names where the input was. */
export function validate<S extends z.ZodType>(schema: S | undefined, input: unknown, where?: "query" | "params") {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A malformed id in a path is just an id that does not exist.
  if (where === "params") throw new ApiError("err_not_found", "Resource not found");
  throw validationError(result.error, where);
}
