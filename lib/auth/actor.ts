import { ApiError } from "@/lib/http/api-error";
import { readSessionCookie, resolveSession } from "@/lib/auth/sessions";
import { verifyApiKey } from "@/lib/auth/verify-api-key";

/** Who is calling: a platform's software with an API key, or an employee signed in to the dashboard. */
export type Actor =
  | { type: "api_key"; id: string; accountId: string; platformId: string }
  | {
      type: "employee";
      id: string;
      accountId: string;
      platformId: string;
      sessionId: string;
      name: string;
      email: string;
      twoFactorEnabled: boolean;
    };

/** Bearer key first (it needs no CSRF check), then the session cookie. */
export async function authenticate(request: Request, ip: string | null): Promise<Actor> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new ApiError("err_unauthenticated", "Authorization must be `Bearer <API key>`");
    const key = await verifyApiKey({ secret: match[1]!, ip });
    return { type: "api_key", id: key.id, accountId: key.accountId, platformId: key.platformId };
  }
  const token = readSessionCookie(request);
  if (token) {
    const session = await resolveSession(token);
    if (!session) throw new ApiError("err_unauthenticated", "Your session has expired; sign in again");
    const { employee } = session;
    return {
      type: "employee",
      id: employee.id,
      accountId: employee.accountId,
      platformId: employee.account.platformId,
      sessionId: session.id,
      name: employee.name,
      email: employee.email,
      twoFactorEnabled: employee.totpEnabledAt !== null,
    };
  }
  throw new ApiError("err_unauthenticated", "Authentication required: send `Authorization: Bearer <API key>` or sign in");
}
