import * as client from "openid-client";
import { DomainError } from "@/lib/errors";
import { inspect } from "@/lib/net/address-rules";
import { OutboundError, outboundFetch, ssoPolicy } from "@/lib/net/outbound";

/** Seconds one request to the issuer may take (discovery, token, JWKS). */
const TIMEOUT_SECONDS = 10;
/** The largest answer read from the issuer (a discovery document, a JWKS, a token response). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The issuer as a URL: https to a public address, or to loopback (http too) when
 * SSO_ALLOW_INSECURE_ISSUER=true (tests, development): the outbound gate's rules for single sign-on
 * (lib/net/outbound.ts), which every request to the issuer passes again after DNS resolution. No
 * credentials, query or fragment: an issuer identifier has none.
 */
export function issuerUrl(issuer: string, field = "sso.issuer"): URL {
  const refuse = (why: string) => new DomainError("invalid", `${field}: ${why}`, { [field]: why });
  if (!URL.canParse(issuer)) throw refuse("must be a URL");
  const url = new URL(issuer);
  if (url.username || url.password || url.search || url.hash)
    throw refuse("must not carry credentials, a query or a fragment");
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must be an https URL");
  const { allowPrivate, allowLoopback, label } = ssoPolicy();
  const checked = inspect(issuer, allowPrivate, { allowLoopback, label });
  if ("problem" in checked) {
    throw refuse(
      url.protocol === "http:"
        ? "must be an https URL (http only on loopback, with SSO_ALLOW_INSECURE_ISSUER=true)"
        : checked.problem,
    );
  }
  return url;
}

/** The issuer's configuration for this client, from its discovery document (the issuer it names must match). */
export async function discoverIssuer({
  issuer,
  clientId,
  clientSecret,
}: {
  issuer: string;
  clientId: string;
  clientSecret?: string;
}): Promise<client.Configuration> {
  const url = issuerUrl(issuer);
  const insecure = url.protocol === "http:";
  const config = await client.discovery(
    url,
    clientId,
    undefined,
    clientSecret === undefined ? client.None() : client.ClientSecretPost(clientSecret),
    {
      timeout: TIMEOUT_SECONDS,
      // Every request of this configuration (discovery, token, JWKS) goes through the outbound gate.
      [client.customFetch]: outboundFetch(ssoPolicy(), {
        timeoutMs: TIMEOUT_SECONDS * 1000,
        maxBytes: MAX_ANSWER_BYTES,
      }),
      // The ID token's signature is checked against the issuer's JWKS too, not only trusted for coming
      // over TLS from the token endpoint (which OpenID Connect would allow, and openid-client does by default).
      execute: insecure
        ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
        : [client.enableNonRepudiationChecks],
    },
  );
  config.timeout = TIMEOUT_SECONDS;
  return config;
}

/** The outbound gate's error behind `error`, if that is what it is. */
const outboundErrorOf = (error: unknown) =>
  error instanceof OutboundError
    ? error
    : (error as { cause?: unknown } | null)?.cause instanceof OutboundError
      ? (error as { cause: OutboundError }).cause
      : null;

/** What went wrong talking to the issuer, for the service's log: the gate's detail (address, system code) where it has one. */
export function issuerErrorDetail(error: unknown): string {
  return outboundErrorOf(error)?.detail ?? issuerErrorMessage(error);
}

/** What went wrong talking to the issuer, in words for the person signing in or configuring (never a secret). */
export function issuerErrorMessage(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  // Refused by the outbound gate, or no answer: its own words, the same whether a port was open or not.
  const outbound = outboundErrorOf(error);
  if (outbound) return outbound.message;
  if (error instanceof client.AuthorizationResponseError) return `the provider answered ${error.error}`;
  if (error instanceof client.ResponseBodyError) return `the provider refused the code (${error.error})`;
  // openid-client's own message is general ("unexpected JWT claim value"); its cause names the claim.
  if (error instanceof client.ClientError) {
    const specific = error.cause instanceof Error && !(error.cause instanceof TypeError) ? error.cause : error;
    return specific.message.replace(/\.$/, "").slice(0, 200);
  }
  return error instanceof Error ? error.message.slice(0, 200) : "unknown error";
}

/** Tries the issuer's discovery: what it says, or 422 naming what failed. */
export async function testIssuer(issuer: string) {
  // Refused as written (422 naming `issuer`) before anything is sent.
  issuerUrl(issuer, "issuer");
  let config: client.Configuration;
  try {
    config = await discoverIssuer({ issuer, clientId: "discovery-test" });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const why = `discovery failed: ${issuerErrorMessage(error)}`;
    throw new DomainError("invalid", `issuer: ${why}`, { issuer: why });
  }
  const metadata = config.serverMetadata();
  return {
    issuer: metadata.issuer,
    authorizationEndpoint: metadata.authorization_endpoint ?? "",
    tokenEndpoint: metadata.token_endpoint ?? "",
    jwksUri: metadata.jwks_uri ?? "",
  };
}
