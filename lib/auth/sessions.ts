import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids/generate";
import { randomToken, sha256 } from "@/lib/auth/tokens";
import { DomainError, notFound } from "@/lib/errors";
import { countSessionCookies, SESSION_COOKIE } from "@/lib/auth/session-cookie.mjs";
import { passwordSignInRefused } from "@/lib/sso/connection";

export { SESSION_COOKIE };
const TOUCH_EVERY_MS = 60_000;

export const ssoRequired = () =>
  new DomainError("sso_required", 'This platform signs in through single sign-on: use "Sign in with SSO"');

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  const secure = env().COOKIE_SECURE ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function clearedSessionCookie(): string {
  const secure = env().COOKIE_SECURE ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/**
 * The session token from the Cookie header, or null. Two session cookies (one planted by a sibling
 * subdomain, say) are ambiguous: 400 rather than a guess at which one is meant. Repeated Cookie
 * lines arrive joined with "; " from Node and ", " from a WHATWG Headers object; both are split.
 */
export function readSessionCookie(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  if (countSessionCookies(header) > 1)
    throw new DomainError("bad_request", `Send one ${SESSION_COOKIE} cookie, not several`);
  for (const part of header.split(/[;,]/)) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=") || null;
  }
  return null;
}

/**
 * Starts a session: 256-bit random token in the cookie, only its hash in the database. Every way in
 * ends here, so this is where single sign-on is required: where the employee's platform enforces it,
 * only a session made through the identity provider (`viaSso`) is given to anyone but an owner
 * (their break-glass), whichever door (password, passkey, invitation, reset) asked for it.
 */
export async function createSession({
  employeeId,
  ip,
  viaSso = false,
}: {
  employeeId: string;
  ip: string | null;
  /** Signed in through the platform's OpenID provider (counts as two factors). */
  viaSso?: boolean;
}) {
  if (!viaSso) {
    const employee = await db().employee.findUniqueOrThrow({
      where: { id: employeeId },
      select: { role: true, account: { select: { platformId: true } } },
    });
    if (await passwordSignInRefused(employee)) throw ssoRequired();
  }
  const token = randomToken(32);
  const now = new Date();
  const maxAgeMs = env().SESSION_MAX_HOURS * 3_600_000;
  const session = await db().session.create({
    data: {
      id: newId("ses"),
      employeeId,
      tokenHash: sha256(token),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + maxAgeMs),
      ip,
      viaSso,
    },
  });
  return { session, cookie: sessionCookie(token, Math.floor(maxAgeMs / 1000)) };
}

/** The live session behind a cookie token, or null when unknown, revoked, idle too long or past its end. */
export async function resolveSession(token: string, now = new Date()) {
  if (token.length > 100) return null;
  const session = await db().session.findUnique({
    where: { tokenHash: sha256(token) },
    include: { employee: { include: { account: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt <= now) return null;
  const idleLimit = session.lastSeenAt.getTime() + env().SESSION_IDLE_MINUTES * 60_000;
  if (idleLimit <= now.getTime()) return null;
  if (session.employee.status !== "active") return null;
  // Sliding idle expiry, written at most once a minute so reads stay reads.
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db().session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  return session;
}

export async function revokeSession(sessionId: string) {
  await db().session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

type Self = { employeeId: string; sessionId: string };

/** The employee's sessions that still work (not ended, not idle too long, not past their end), newest first. */
export async function listOwnSessions({ employeeId, sessionId, now = new Date() }: Self & { now?: Date }) {
  const idleSince = new Date(now.getTime() - env().SESSION_IDLE_MINUTES * 60_000);
  const rows = await db().session.findMany({
    where: { employeeId, revokedAt: null, expiresAt: { gt: now }, lastSeenAt: { gt: idleSince } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((row) => presentOwnSession(row, sessionId));
}

/** Ends one of the employee's own sessions; anyone else's is not found. Ending an ended one changes nothing. */
export async function endOwnSession({ employeeId, sessionId, id }: Self & { id: string }) {
  const row = await db().session.findFirst({ where: { id, employeeId } });
  if (!row) throw notFound("Session");
  await db().session.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
  return presentOwnSession(row, sessionId);
}

function presentOwnSession(
  row: { id: string; createdAt: Date; lastSeenAt: Date; ip: string | null },
  currentSessionId: string,
) {
  return {
    id: row.id,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    ip: row.ip,
    current: row.id === currentSessionId,
  };
}
