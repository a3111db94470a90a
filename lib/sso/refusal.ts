import { DomainError } from "@/lib/errors";
import { SsoRefusal } from "@/lib/sso/flow";

/** What the sign-in page says about a failed callback; an unexpected failure is logged, never shown. */
export function errorMessageOf(error: unknown, request: Request): string {
  if (error instanceof SsoRefusal || error instanceof DomainError) return error.message;
  const requestId = request.headers.get("x-request-id") ?? "";
  console.error(`[sso] callback failed ${requestId}: ${(error as Error)?.stack ?? String(error)}`);
  return "Single sign-on failed on our side. Try again, or sign in another way.";
}
