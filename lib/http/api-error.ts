import { ZodError, type z } from "zod";
import { errorStatus, type ErrorBody, type ErrorCode } from "@/lib/contract/error-codes";

/** The one error type the HTTP layer turns into the contract's error body. */
export class ApiError extends Error {
  /** Who was refused, when known (a revoked key, say), for the audit trail. */
  actor?: { type: "employee" | "api_key"; id: string; platformId: string; accountId: string };

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  get status(): number {
    return errorStatus[this.code];
  }

  body(): ErrorBody {
    return {
      error_code: this.code,
      message: this.message,
      http_code: this.status,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export const notFound = (what = "Resource") => new ApiError("err_not_found", `${what} not found`);

/** 422 with one entry per failing field path ("cidrAllowlist.1": "..."), as forms show them. */
export function validationError(error: ZodError | z.core.$ZodIssue[], where?: "query" | "params"): ApiError {
  const issues = error instanceof ZodError ? error.issues : error;
  // No prototype: a field path named "__proto__" or "constructor" is an own key like any other.
  const details: Record<string, string> = Object.create(null);
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : (where ?? "body");
    if (!Object.hasOwn(details, key)) details[key] = issue.message;
  }
  const [first] = Object.entries(details);
  const message = first ? `${first[0]}: ${first[1]}` : "Invalid input";
  return new ApiError("err_validation", message, details);
}
