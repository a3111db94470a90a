import { timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { safeNextPath } from "@/lib/auth/next-path";
import { createSession } from "@/lib/auth/sessions";
import { takeAttempt, throttleKey } from "@/lib/auth/throttle";
import { throttleGroup } from "@/lib/net/ip";
import { sha256 } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { ssoClientOf } from "@/lib/sso/connection";
import { discoverIssuer, issuerErrorDetail, issuerErrorMessage } from "@/lib/sso/issuer";

// The authorization code flow with PKCE (docs/security.md, Single sign-on).
// What one sign-in needs between start and callback (nonce, PKCE verifier) lives in the database under
// the hash of its `state`, so any instance can finish what another started; the callback deletes the
// row in one conditional write, so a state works once. The browser holds the state in a short-lived
// cookie, and the callback refuses a state that is not the one this browser started with.

/** How long a started sign-in may take at the provider. */
export const SSO_LOGIN_TTL_SECONDS = 600;

/** Why a sign-in through the provider was refused, as the sign-in page shows it. */
export class SsoRefusal extends Error {
  /** The platform the sign-in was for, once known: its audit trail records the refusal. */
  platformId?: string;
}

const refuse = (message: string) => new SsoRefusal(message);

/**
 * The platform an e-mail signs in to: the employee's, or else the one platform whose allowed domains
 * hold its domain (so an unknown address goes to the provider like a known one, and is refused there).
 */
async function platformFor(email: string): Promise<string | null> {
  const employee = await db().employee.findUnique({
    where: { email },
    select: { account: { select: { platformId: true } } },
  });
  if (employee) return employee.account.platformId;
  const domain = email.split("@")[1] ?? "";
  const rows = await db().ssoConnection.findMany({ select: { platformId: true, allowedDomains: true }, take: 100 });
  const matching = rows.filter((row) => Array.isArray(row.allowedDomains) && row.allowedDomains.includes(domain));
  return matching.length === 1 ? matching[0]!.platformId : null;
}

/** Sign-ins one client may start in 15 minutes: each stores a state and calls the provider. */
const START_RULE = { limit: 30, windowMs: 15 * 60_000 };

/** Starts a sign-in: the provider's authorization URL to redirect to, and the state for the browser's cookie. */
export async function startSsoSignIn({
  email,
  redirectUri,
  next,
  ip,
}: {
  email: string;
  redirectUri: string;
  next?: string;
  ip: string | null;
}) {
  const normalized = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized)) throw refuse("Enter your work e-mail address to sign in with SSO.");
  const platformId = await platformFor(normalized);
  const connection = platformId ? await ssoClientOf(platformId) : null;
  if (!platformId || !connection) throw refuse("Single sign-on is not set up for this e-mail address.");
  const taken = await takeAttempt(throttleKey("sso:start-ip", throttleGroup(ip)), START_RULE);
  if ("retryAfterMs" in taken) {
    throw refuse(
      `Too many sign-ins started from here. Try again in ${Math.ceil(taken.retryAfterMs / 60_000)} minutes.`,
    );
  }
  const config = await discover(connection);
  // Started sign-ins nobody finished are of no use once expired.
  await db().ssoLogin.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  const [state, nonce, codeVerifier] = [client.randomState(), client.randomNonce(), client.randomPKCECodeVerifier()];
  await db().ssoLogin.create({
    data: {
      stateHash: sha256(state),
      platformId,
      nonce,
      codeVerifier,
      returnTo: safeNextPath(next ?? null),
      expiresAt: new Date(Date.now() + SSO_LOGIN_TTL_SECONDS * 1000),
    },
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    login_hint: normalized,
  });
  return { url, state };
}

async function discover(connection: { issuer: string; clientId: string; clientSecret: string }) {
  try {
    return await discoverIssuer(connection);
  } catch (error) {
    console.warn(`[sso] discovery of ${connection.issuer} failed: ${issuerErrorDetail(error)}`);
    throw refuse("The identity provider could not be reached. Try again, or ask an owner to check the SSO settings.");
  }
}

const sameText = (a: string, b: string) => {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Takes the started sign-in for `state` once: a second callback with the same state finds nothing. */
async function takeLogin(state: string) {
  const stateHash = sha256(state);
  const login = await db().ssoLogin.findUnique({ where: { stateHash } });
  if (!login) return null;
  const { count } = await db().ssoLogin.deleteMany({ where: { stateHash, expiresAt: { gt: new Date() } } });
  return count === 1 ? login : null;
}

type Callback = {
  /** The callback URL as the provider redirected the browser to it (this service's origin). */
  currentUrl: URL;
  /** The state this browser started with (its cookie), or null. */
  browserState: string | null;
  ip: string | null;
  commit?: Commit;
};

/**
 * Finishes a sign-in: the state (this browser's, unused, unexpired), then the code exchanged with the
 * PKCE verifier and the ID token checked (signature by the issuer's JWKS, issuer, audience, expiry,
 * nonce), then the asserted e-mail (verified, in an allowed domain, an active employee of the platform).
 */
export async function finishSsoSignIn({ currentUrl, browserState, ip, commit = commitWithoutAudit }: Callback) {
  const state = currentUrl.searchParams.get("state");
  if (!state || !browserState || !sameText(state, browserState)) {
    throw refuse("This sign-in was not started in this browser, or it took too long. Start again.");
  }
  const login = await takeLogin(state);
  if (!login) throw refuse("This sign-in link was already used or has expired. Start again.");
  try {
    return await signInAsserted({ login, currentUrl, ip, commit });
  } catch (error) {
    if (error instanceof SsoRefusal) error.platformId = login.platformId;
    throw error;
  }
}

/** The code exchanged and the ID token checked, then the employee it asserts signed in. */
async function signInAsserted({
  login,
  currentUrl,
  ip,
  commit,
}: {
  login: { platformId: string; nonce: string; codeVerifier: string; returnTo: string | null };
  currentUrl: URL;
  ip: string | null;
  commit: Commit;
}) {
  const connection = await ssoClientOf(login.platformId);
  if (!connection) throw refuse("Single sign-on is no longer set up for this platform.");
  const claims = await exchangeCode(connection, currentUrl, login);
  const email = assertedEmail(claims, connection.allowedDomains);
  const employee = await db().employee.findUnique({ where: { email }, include: { account: true } });
  if (!employee || employee.status !== "active" || employee.account.platformId !== login.platformId) {
    throw refuse(
      `Your identity provider signed you in as ${email}, but no active employee has that e-mail address here.`,
    );
  }
  const actor = {
    type: "employee" as const,
    id: employee.id,
    platformId: login.platformId,
    accountId: employee.accountId,
  };
  const { session, cookie } = await commit(async () => {
    // Conditional on being active: a deactivation that committed meanwhile wins, and no session is made.
    const { count } = await db().employee.updateMany({
      where: { id: employee.id, status: "active" },
      data: { lastLoginAt: new Date() },
    });
    if (count !== 1) throw new DomainError("unauthenticated", "This employee is not active");
    return createSession({ employeeId: employee.id, ip, viaSso: true });
  }, actor);
  return { employeeId: employee.id, session, cookie, returnTo: login.returnTo };
}

async function exchangeCode(
  connection: { issuer: string; clientId: string; clientSecret: string },
  currentUrl: URL,
  login: { nonce: string; codeVerifier: string },
) {
  const config = await discover(connection);
  try {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedNonce: login.nonce,
      expectedState: currentUrl.searchParams.get("state")!,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw refuse("The identity provider sent no ID token.");
    if (typeof claims.email === "string") return claims;
    // Providers that keep profile claims out of the ID token (oidc-provider, Okta) give them at userinfo,
    // answered for the ID token's own subject only.
    const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { email: userInfo.email, email_verified: userInfo.email_verified };
  } catch (error) {
    if (error instanceof SsoRefusal) throw error;
    const why = issuerErrorMessage(error);
    console.warn(`[sso] sign-in through ${connection.issuer} refused: ${issuerErrorDetail(error)}`);
    throw refuse(`The identity provider's answer was refused: ${why}.`);
  }
}

/** The e-mail the ID token asserts: present, verified by the provider, and in an allowed domain. */
function assertedEmail(claims: { [claim: string]: unknown }, allowedDomains: readonly string[]): string {
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) throw refuse("The identity provider did not share your e-mail address (the `email` scope).");
  if (claims.email_verified !== true) {
    throw refuse(`Your identity provider has not verified the e-mail address ${email}.`);
  }
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (allowedDomains.length > 0 && !allowedDomains.includes(domain)) {
    throw refuse(`E-mail addresses at ${domain} may not sign in with SSO here.`);
  }
  return email;
}
