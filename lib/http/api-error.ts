import { ZodError, type z } from "zod";
import { errorStatus, type ErrorBody, type ErrorCode } from "@/lib/contract/error-codes";
import type { DomainError, DomainErrorKind, RefusedActor } from "@/lib/errors";

/** The one error type the HTTP layer turns into the contract's error body. */
export class ApiError extends Error {
  /** Who was refused, when known (a revoked key, say), for the audit trail. */
  actor?: RefusedActor;

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

  /** The contract's error body, naming the server's id of the request it answers (`requestId`). */
  body(requestId: string): ErrorBody {
    return {
      error_code: this.code,
      message: this.message,
      http_code: this.status,
      ...(this.details ? { details: this.details } : {}),
      request_id: requestId,
    };
  }
}

/** The contract's code for each kind of domain error (lib/errors.ts). */
const codeOfKind: Record<DomainErrorKind, ErrorCode> = {
  invalid: "err_validation",
  bad_request: "err_bad_request",
  not_found: "err_not_found",
  conflict: "err_conflict",
  forbidden: "err_forbidden",
  unauthenticated: "err_unauthenticated",
  rate_limited: "err_rate_limited",
  otp_required: "err_otp_required",
  otp_invalid: "err_otp_invalid",
  password_incorrect: "err_password_incorrect",
  two_factor_required: "err_two_factor_required",
  sso_required: "err_sso_required",
  ip_not_allowed: "err_ip_not_allowed",
};

/** A domain's refusal as the contract answers it: its code, the same message and details, Retry-After, and who was refused. */
export function toApiError(error: DomainError): ApiError {
  const headers = error.retryAfter === undefined ? undefined : { "Retry-After": String(error.retryAfter) };
  const apiError = new ApiError(codeOfKind[error.kind], error.message, error.details, headers);
  if (error.actor) apiError.actor = error.actor;
  return apiError;
}

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
