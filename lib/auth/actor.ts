import { DomainError } from "@/lib/errors";
import { idPattern } from "@/lib/ids/schema";
import { readSessionCookie, resolveSession } from "@/lib/auth/sessions";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import type { RateLimit } from "@/lib/api-keys/schemas";
import { ROLE_PERMISSIONS, type Permission, type Role } from "@/lib/auth/permissions";

/**
 * Who is calling: a platform's software with an API key, or an employee signed in to the dashboard.
 * `permissions` is what the caller may do: a key's own list, or the employee's role's.
 */
export type Actor =
  | {
      type: "api_key";
      id: string;
      accountId: string;
      platformId: string;
      permissions: readonly Permission[];
      /** A key issued for a sub-account acts for that account only (docs/security.md, Who may do what). */
      confined: boolean;
      /** The limit its requests are counted against (its own, or the platform's default). */
      rateLimit: RateLimit;
      /** The account Service-Account-Id names, as looked up with the key (lib/tenancy.ts scopeFor uses it). */
      serviceAccount?: { id: string; inPlatform: boolean };
    }
  | {
      type: "employee";
      id: string;
      accountId: string;
      platformId: string;
      permissions: readonly Permission[];
      confined: false;
      role: Role;
      sessionId: string;
      name: string;
      email: string;
      twoFactorEnabled: boolean;
      /** Signed in through the platform's OpenID provider, which counts as two factors (requireTwoFactor). */
      viaSso: boolean;
      /** The platform's settings, read with the session. */
      settings: { requireTwoFactor: boolean; fourEyesApproval: boolean };
    };

/** An employee signed in to the dashboard (the actor of `auth: "session"` routes). */
export type EmployeeActor = Extract<Actor, { type: "employee" }>;

/**
 * Bearer key first (it needs no CSRF check), then the session cookie. Ambiguous credentials answer
 * 400: two Authorization headers (a Headers object joins them with ", "; a key never holds a comma)
 * or two session cookies (readSessionCookie). server.mjs refuses both before any route runs too.
 * Refusals are thrown DomainErrors (lib/errors.ts).
 */
export async function authenticate(request: Request, ip: string | null): Promise<Actor> {
  const authorization = request.headers.get("authorization");
  const token = readSessionCookie(request);
  if (authorization === null) return authenticateSession(token);
  if (authorization.includes(",")) throw new DomainError("bad_request", "Send one Authorization header, not several");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new DomainError("unauthenticated", "Authorization must be `Bearer <API key>`");
  const named = request.headers.get("service-account-id")?.trim();
  const serviceAccountId = named && idPattern("acct").test(named) ? named : null;
  const userAgent = request.headers.get("user-agent");
  const key = await verifyApiKey({ secret: match[1]!, ip, userAgent, serviceAccountId });
  return {
    type: "api_key",
    id: key.id,
    accountId: key.accountId,
    platformId: key.platformId,
    permissions: key.permissions,
    confined: key.accountId !== key.platformId,
    rateLimit: key.rateLimit,
    ...(key.serviceAccount && { serviceAccount: key.serviceAccount }),
  };
}

async function authenticateSession(token: string | null): Promise<Actor> {
  if (token) {
    const session = await resolveSession(token);
    if (!session) throw new DomainError("unauthenticated", "Your session has expired; sign in again");
    const { employee } = session;
    const { role } = employee;
    return {
      type: "employee",
      id: employee.id,
      accountId: employee.accountId,
      platformId: employee.account.platformId,
      permissions: ROLE_PERMISSIONS[role],
      confined: false,
      role,
      sessionId: session.id,
      name: employee.name,
      email: employee.email,
      twoFactorEnabled: employee.totpEnabledAt !== null,
      viaSso: session.viaSso,
      settings: {
        requireTwoFactor: employee.account.requireTwoFactor,
        fourEyesApproval: employee.account.fourEyesApproval,
      },
    };
  }
  throw new DomainError(
    "unauthenticated",
    "Authentication required: send `Authorization: Bearer <API key>` or sign in",
  );
}
