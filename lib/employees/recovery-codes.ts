import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { sha256 } from "@/lib/auth/tokens";

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
const COUNT = 10;

/** Normalised form: lower case, no separators, so "ABCD-EFGH..." and "abcdefgh..." are the same code. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Ten codes of 16 base32 characters (80 random bits each), grouped in fours for reading. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: COUNT }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (byte) => alphabet[byte % 32]).join("");
    return chars.match(/.{4}/g)!.join("-");
  });
}

export function recoveryCodeRows(employeeId: string, codes: string[]) {
  return codes.map((code) => ({ id: newId("rc"), employeeId, codeHash: sha256(normalizeRecoveryCode(code)) }));
}

/** Spends a recovery code: true only for an unused code of this employee, and only once even under races. */
export async function consumeRecoveryCode({ employeeId, code }: { employeeId: string; code: string }): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 16) return false;
  const { count } = await db().recoveryCode.updateMany({
    where: { employeeId, codeHash: sha256(normalized), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1;
}
