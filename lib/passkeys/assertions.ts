import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import { db } from "@/lib/db";
import { recordAuditEvent } from "@/lib/audit/trail";
import { systemActions } from "@/lib/audit/system-actions";
import { oneTimeCodeRule, passkeyOptionsRule, takeAttempts, takeSlot, throttleKey } from "@/lib/auth/throttle";
import { throttleGroup } from "@/lib/net/ip";
import { DomainError } from "@/lib/errors";
import { consumeChallenge, saveChallenge, type ChallengePurpose } from "@/lib/passkeys/challenges";
import { transportsOf } from "@/lib/passkeys/passkeys";
import { challengeOf, type RelyingParty } from "@/lib/passkeys/relying-party";
import { passkeyAssertionSchema, type PasskeyAssertion } from "@/lib/passkeys/schemas";

/**
 * Options for `navigator.credentials.get()` at sign-in, for the e-mail given. No credential is
 * named (passkeys are discoverable), so the answer is the same for every e-mail, known or not.
 * Counted per client before the challenge is stored (429 past passkeyOptionsRule).
 */
export async function startPasskeySignIn({ email, rp, ip }: { email: string; rp: RelyingParty; ip: string | null }) {
  await takeAttempts([{ key: throttleKey("passkey-options:ip", throttleGroup(ip)), rule: passkeyOptionsRule }]);
  const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: "required" });
  await saveChallenge({ challenge: options.challenge, purpose: "sign_in", email: email.trim().toLowerCase() });
  return { ...options, userVerification: "required" as const };
}

/** Options for a step-up by passkey: the signed-in employee's own passkeys. */
export async function startPasskeyStepUp({ employeeId, rp }: { employeeId: string; rp: RelyingParty }) {
  const passkeys = await db().passkey.findMany({ where: { employeeId } });
  if (passkeys.length === 0)
    throw new DomainError("conflict", "You have no passkey: register one on the Security page");
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    userVerification: "required",
    allowCredentials: passkeys.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
  });
  await saveChallenge({ challenge: options.challenge, purpose: "step_up", employeeId });
  return { ...options, userVerification: "required" as const };
}

/** Where an assertion is checked: what a refusal is called there, and what the audit trail needs. */
export type AssertionCheck = {
  employeeId: string;
  assertion: PasskeyAssertion;
  rp: RelyingParty;
  /** sign_in: the challenge was asked for this e-mail; step_up: by this employee. */
  purpose: Extract<ChallengePurpose, "sign_in" | "step_up">;
  email?: string;
  /** The refusal: 401 err_unauthenticated at sign-in, 400 err_otp_invalid at step-up. */
  refusal: () => DomainError;
  request: { ip: string | null; requestId: string };
};

/**
 * Checks a passkey assertion as a second factor or a step-up, counted BEFORE it is checked on the
 * employee's one-time-code counter (shared with TOTP and recovery codes; a passkey that works gives
 * its attempt back). In order: the credential is this employee's; its challenge is spent (one
 * conditional write, so a replayed assertion finds it spent); the signature, origin, RP ID and user
 * verification hold; the signature counter went forward (a cloned authenticator's does not: refused
 * and audited); and the counter is moved by a write conditional on the value checked.
 */
export async function verifyPasskeyAssertion(check: AssertionCheck): Promise<void> {
  const attempt = await takeSlot(throttleKey("totp", check.employeeId), oneTimeCodeRule);
  const { employeeId, assertion, refusal } = check;
  const passkey = await db().passkey.findFirst({
    where: { credentialId: assertion.id, employeeId },
    include: { employee: { include: { account: true } } },
  });
  if (!passkey) throw refusal();
  const challenge = challengeOf(assertion.response.clientDataJSON);
  const subject = check.purpose === "sign_in" ? { email: check.email ?? "" } : { employeeId };
  if (!challenge || !(await consumeChallenge({ challenge, purpose: check.purpose, ...subject }))) throw refusal();
  const newCounter = await verifiedCounter(check, challenge, passkey);
  if (newCounter === null) throw refusal();
  if ((newCounter > 0n || passkey.counter > 0n) && newCounter <= passkey.counter) {
    await recordAuditEvent({
      actor: {
        type: "employee",
        id: employeeId,
        platformId: passkey.employee.account.platformId,
        accountId: passkey.employee.accountId,
      },
      action: systemActions.passkeyCounterRegressed,
      targetId: passkey.id,
      ip: check.request.ip,
      status: refusal().kind === "unauthenticated" ? 401 : 400,
      requestId: check.request.requestId,
      details: { storedCounter: Number(passkey.counter), receivedCounter: Number(newCounter) },
    });
    throw refusal();
  }
  const { count } = await db().passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: newCounter, lastUsedAt: new Date() },
  });
  if (count !== 1) throw refusal();
  await attempt.refund();
}

/**
 * The assertion's signature counter once its signature, challenge, origin, RP ID and user
 * verification are verified, or null. The library is handed counter 0, so it never judges the
 * counter before the signature; verifyPasskeyAssertion compares it with the stored one afterwards,
 * so only a validly signed assertion is ever audited as a cloned authenticator's.
 */
async function verifiedCounter(
  { assertion, rp }: AssertionCheck,
  challenge: string,
  passkey: { credentialId: string; publicKey: Uint8Array; transports: string },
): Promise<bigint | null> {
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: 0,
        transports: transportsOf(passkey),
      },
    });
    return verified ? BigInt(authenticationInfo.newCounter) : null;
  } catch {
    return null;
  }
}

/**
 * The Service-Passkey-Assertion header (base64url of the assertion's JSON) as an assertion, or null
 * when it is not one (then the step-up is refused as a wrong code would be, never a 500).
 */
export function parsePasskeyHeader(header: string): PasskeyAssertion | null {
  if (header.length > 32_768 || !/^[A-Za-z0-9_-]+={0,2}$/.test(header)) return null;
  try {
    const parsed = passkeyAssertionSchema.safeParse(JSON.parse(Buffer.from(header, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
