// The contract's error codes and the status each answers with (docs/api.md, Errors), and the
// one body every error has. Client-safe: the OpenAPI document, the dashboard's client and the tests read them.

export const errorStatus = {
  err_bad_request: 400,
  err_otp_required: 400,
  err_otp_invalid: 400,
  err_unauthenticated: 401,
  err_ip_not_allowed: 403,
  err_forbidden: 403,
  err_password_incorrect: 403,
  err_two_factor_required: 403,
  err_sso_required: 403,
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
  /** The server's id of the request: the one its log and audit trail name, and a 500's message quotes. */
  request_id: string;
};
