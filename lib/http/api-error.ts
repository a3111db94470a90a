import { ZodError, type z } from "zod";

export const errorStatus = {
  err_bad_request: 400,
  err_otp_required: 400,
  err_otp_invalid: 400,
  err_unauthenticated: 401,
  err_ip_not_allowed: 403,
  err_forbidden: 403,
  err_password_incorrect: 403,
  err_two_factor_required: 403,
  err_not_found: 404,
  err_method_not_allowed: 405,
  err_conflict: 409,
  err_idempotency_secret: 409,
  err_payload_too_large: 413,
  err_unsupported_media_type: 415,
  err_validation: 422,
  err_idempotency_mismatch: 422,
  err_rate_limited: 429,
  err_internal: 500,
  err_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorBody = {
  error_code: ErrorCode;
  message: string;
  http_code: number;
  details?: Record<string, string>;
};

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
