import { ZodError } from "zod";
import { isDatabaseBusy, isUniqueViolation } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, toApiError, validationError } from "@/lib/http/api-error";
import { DomainError } from "@/lib/errors";
import { toJsonResponse } from "@/lib/http/json-response";
import { headerIdOf, type RequestIds } from "@/lib/http/request-ids";
import { countMetric } from "@/lib/observability/count";
import { log } from "@/lib/observability/log.mjs";

/**
 * Turns anything thrown into the contract's error body; only unexpected errors are logged, without
 * internals in the reply, under the server's own request id, which the reply quotes.
 */
export function errorResponse(error: unknown, ids: RequestIds): Response {
  const { requestId } = ids;
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof DomainError) apiError = toApiError(error);
  else if (error instanceof ZodError) apiError = validationError(error);
  else if (isUniqueViolation(error)) {
    apiError = new ApiError("err_conflict", "A resource with these unique values already exists");
  } else if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025") {
    apiError = new ApiError("err_not_found", "Resource not found");
  } else if (isDatabaseBusy(error)) {
    // Nothing was changed (the transaction rolled back): the client may send it again shortly.
    const cause = error instanceof Error ? error.message.split("\n").at(-1) : String(error);
    log.warn({ requestId, cause }, `[${requestId}] database busy: ${cause}`);
    countMetric("database_busy_total");
    apiError = new ApiError("err_unavailable", "The service is busy; try again shortly", undefined, {
      "Retry-After": "1",
    });
  } else {
    const name = error instanceof Error ? error.name : typeof error;
    const client = ids.clientRequestId ? ` (client X-Request-Id ${ids.clientRequestId})` : "";
    // One log line: the stack is a field of it (`err`), not lines of its own.
    log.error(
      {
        requestId,
        clientRequestId: ids.clientRequestId,
        err: error instanceof Error ? error : new Error(String(error)),
      },
      `[${requestId}]${client} unhandled ${name}`,
    );
    apiError = new ApiError("err_internal", `Internal error; quote request id ${requestId} when reporting it`);
  }
  return toJsonResponse(apiError.body(requestId), apiError.status, headerIdOf(ids), apiError.headers);
}
