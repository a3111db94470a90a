import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";

/** How long an options answer's challenge can be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = "registration" | "sign_in" | "step_up";

/** Who a challenge was made for: the signed-in employee (registration, step-up), or the e-mail a sign-in named. */
type Subject = { employeeId: string; email?: undefined } | { email: string; employeeId?: undefined };

/**
 * Keeps a challenge for 5 minutes, in the database, so whichever instance the answer reaches can
 * check it. Expired ones are swept here, so the table holds at most 5 minutes of challenges.
 */
export async function saveChallenge({
  challenge,
  purpose,
  ...subject
}: { challenge: string; purpose: ChallengePurpose } & Subject) {
  const now = new Date();
  await db().webAuthnChallenge.deleteMany({ where: { expiresAt: { lt: now } } });
  await db().webAuthnChallenge.create({
    data: {
      id: newId("wch"),
      challenge,
      purpose,
      employeeId: subject.employeeId ?? null,
      email: subject.email ?? null,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    },
  });
}

/**
 * Spends a challenge: one conditional write (unused, unexpired, made for this purpose and subject)
 * whose row count decides, so of two answers racing with one challenge (on any instance) at most
 * one is ever checked further. It commits on its own: a refusal afterwards does not give it back.
 */
export async function consumeChallenge({
  challenge,
  purpose,
  ...subject
}: { challenge: string; purpose: ChallengePurpose } & Subject): Promise<boolean> {
  const now = new Date();
  const { count } = await db().webAuthnChallenge.updateMany({
    where: {
      challenge,
      purpose,
      ...(subject.employeeId !== undefined ? { employeeId: subject.employeeId } : { email: subject.email }),
      usedAt: null,
      expiresAt: { gt: now },
    },
    data: { usedAt: now },
  });
  return count === 1;
}
