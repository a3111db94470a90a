import { generateSecret, generateURI, verify } from "otplib";

export const TOTP_PERIOD = 30;

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri({ secret, issuer, account }: { secret: string; issuer: string; account: string }): string {
  return generateURI({ issuer, label: account, secret, period: TOTP_PERIOD, digits: 6, algorithm: "sha1" });
}

/**
 * The time step a 6-digit code belongs to (now, or one step either side), or null when it matches
 * none or only steps at or before `afterStep` (already used: replay). Malformed codes are null too.
 */
export async function matchTotpStep({
  secret,
  code,
  afterStep,
  now = Date.now(),
}: {
  secret: string;
  code: string;
  afterStep?: number | null;
  now?: number;
}): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({
      secret,
      token: code,
      period: TOTP_PERIOD,
      epoch: Math.floor(now / 1000),
      epochTolerance: TOTP_PERIOD,
      ...(afterStep != null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && "timeStep" in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
