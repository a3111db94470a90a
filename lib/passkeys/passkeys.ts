import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import { db, isUniqueViolation } from "@/lib/db";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { env } from "@/lib/env";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids/generate";
import { consumeChallenge, saveChallenge } from "@/lib/passkeys/challenges";
import { challengeOf, type RelyingParty } from "@/lib/passkeys/relying-party";
import type { PasskeyAttestation } from "@/lib/passkeys/schemas";
import type { Passkey } from "@/lib/generated/prisma/client";

/** A passkey as the API shows it: never its key, counter or credential id. */
export const presentPasskey = (row: Passkey) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

/** The transports a passkey was registered with, as hints for the browser. */
export function transportsOf(row: Pick<Passkey, "transports">): AuthenticatorTransportFuture[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed)
      ? (parsed.filter((item) => KNOWN_TRANSPORTS.has(item)) as AuthenticatorTransportFuture[])
      : [];
  } catch {
    return [];
  }
}

type AuthenticatorTransportFuture = "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb";
const KNOWN_TRANSPORTS = new Set<unknown>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/**
 * Options for `navigator.credentials.create()`: a discoverable credential (a passkey proper, so
 * sign-in never has to name an employee's credentials to a stranger), user verification required,
 * no attestation, and the employee's existing passkeys excluded.
 */
export async function startPasskeyRegistration({ employeeId, rp }: { employeeId: string; rp: RelyingParty }) {
  const employee = await db().employee.findUnique({ where: { id: employeeId }, include: { passkeys: true } });
  if (!employee) throw notFound("Employee");
  const options = await generateRegistrationOptions({
    rpName: env().TOTP_ISSUER,
    rpID: rp.rpId,
    userID: new TextEncoder().encode(employee.id),
    userName: employee.email,
    userDisplayName: employee.name,
    attestationType: "none",
    excludeCredentials: employee.passkeys.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await saveChallenge({ challenge: options.challenge, purpose: "registration", employeeId });
  return {
    ...options,
    authenticatorSelection: { ...options.authenticatorSelection, userVerification: "required" as const },
  };
}

const refusedRegistration = (why: string) => new DomainError("invalid", `response: ${why}`, { response: why });

/**
 * Registers the passkey a browser made for a challenge of startPasskeyRegistration: the challenge is
 * spent first (once, whatever follows), then the attestation is checked for this origin and RP ID
 * with user verification. A credential registered before (by anyone) answers 409.
 */
export async function registerPasskey({
  employeeId,
  name,
  response,
  rp,
  commit = commitWithoutAudit,
}: {
  employeeId: string;
  name: string;
  response: PasskeyAttestation;
  rp: RelyingParty;
  commit?: Commit;
}) {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge({ challenge, purpose: "registration", employeeId }))) {
    throw refusedRegistration("answers no open challenge of yours (ask POST /v1/employees/passkeys/options again)");
  }
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    throw refusedRegistration(`is not a valid passkey for this site (${(error as Error).message})`);
  }
  if (!verification.verified) throw refusedRegistration("is not a valid passkey for this site");
  const { credential } = verification.registrationInfo;
  try {
    const row = await commit(() =>
      db().passkey.create({
        data: {
          id: newId("pk"),
          employeeId,
          name,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          counter: BigInt(credential.counter),
          transports: JSON.stringify(response.response.transports?.filter((item) => KNOWN_TRANSPORTS.has(item)) ?? []),
        },
      }),
    );
    return presentPasskey(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("conflict", "This passkey is already registered");
    throw error;
  }
}

/** The employee's passkeys, oldest first. */
export async function listPasskeys({ employeeId }: { employeeId: string }) {
  const rows = await db().passkey.findMany({ where: { employeeId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentPasskey);
}

/** Removes one of the employee's own passkeys; another employee's answers 404, as an unknown one does. */
export async function removePasskey({ employeeId, id }: { employeeId: string; id: string }) {
  const row = await db().passkey.findFirst({ where: { id, employeeId } });
  if (!row) throw notFound("Passkey");
  const { count } = await db().passkey.deleteMany({ where: { id, employeeId } });
  if (count !== 1) throw notFound("Passkey");
  return presentPasskey(row);
}
