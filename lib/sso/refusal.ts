import { recordAuditEvent } from "@/lib/audit/trail";
import { DomainError } from "@/lib/errors";
import { SsoRefusal } from "@/lib/sso/flow";

/** What the sign-in page says about a failed callback; an unexpected failure is logged, never shown. */
export function errorMessageOf(error: unknown, requestId: string): string {
  if (error instanceof SsoRefusal || error instanceof DomainError) return error.message;
  console.error(`[${requestId}] SSO callback failed: ${(error as Error)?.stack ?? String(error)}`);
  return "Single sign-on failed on our side. Try again, or sign in another way.";
}

/**
 * A refused callback in the audit trail (401, action `session.sso`), in its platform's trail once the
 * sign-in it belonged to is known. The reason is the one the page shows: never a code or a token.
 */
export async function recordSsoRefusal({
  error,
  message,
  requestId,
  ip,
}: {
  error: unknown;
  message: string;
  requestId: string;
  ip: string | null;
}) {
  await recordAuditEvent({
    actor: null,
    platformId: error instanceof SsoRefusal ? (error.platformId ?? null) : null,
    action: "session.sso",
    targetId: null,
    ip,
    status: 401,
    requestId,
    details: { reason: message },
  });
}
