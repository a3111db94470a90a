// The errors domain code throws (lib/<domain>, lib/contract): what went wrong, in the domain's words.
// lib/http/api-error.ts maps each kind to the contract's error code and status (docs/api.md, Errors),
// so no domain knows a status code, a header or an error body.

/**
 * invalid: the input breaks a rule of the domain (a field named in `details`); bad_request: the
 * request itself cannot be read (a cursor this API never issued); not_found: unknown, or another
 * tenant's (never reveal it exists); conflict: the state forbids it now; forbidden: who asks may not;
 * unauthenticated: no valid credential; rate_limited: too many attempts (`retryAfter`). The rest are
 * the second factor's and the credentials' own refusals, which clients tell apart.
 */
export type DomainErrorKind =
  | "invalid"
  | "bad_request"
  | "not_found"
  | "conflict"
  | "forbidden"
  | "unauthenticated"
  | "rate_limited"
  | "otp_required"
  | "otp_invalid"
  | "password_incorrect"
  | "two_factor_required"
  | "sso_required"
  | "ip_not_allowed";

/** Who was refused, when the refusal knows (a revoked key, a wrong password for a known e-mail), for the audit trail. */
export type RefusedActor = { type: "employee" | "api_key"; id: string; platformId: string; accountId: string };

export class DomainError extends Error {
  actor?: RefusedActor;
  /** Seconds until trying again makes sense (rate_limited). */
  readonly retryAfter?: number;

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Per field (or per subject) what is wrong, as a form shows it. */
    readonly details?: Record<string, string>,
    options: { retryAfter?: number } = {},
  ) {
    super(message);
    this.name = "DomainError";
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

export const notFound = (what = "Resource") => new DomainError("not_found", `${what} not found`);
