import type { z } from "zod";
import { isDeepStrictEqual } from "node:util";
import { applicantProfileSchema, presentApplicantProfile, updateProfileInput } from "@/lib/kyc/schemas";
import { inTransaction, lockRow } from "@/lib/db";
import { currentScope, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// The applicant profile is one row per account (keyed by accountId), so the tenancy confinement
// alone picks the row: these functions take no id.

/** The scope account's applicant profile; every field null before the first update. */
export async function getApplicantProfile() {
  const row = await tenantDb().applicantProfile.findFirst();
  return presentApplicantProfile(row);
}

/** Applies a partial update, creating the profile on first use, and returns the whole profile. */
export async function updateApplicantProfile(fields: z.input<typeof updateProfileInput>) {
  // Validated here as well as in the route, so the seed and the dashboard cannot store what the API would refuse.
  const input = updateProfileInput.parse(fields);
  const data = {
    ...(input.firstName !== undefined && { firstName: input.firstName }),
    ...(input.lastName !== undefined && { lastName: input.lastName }),
    ...(input.dateOfBirth !== undefined && { dateOfBirth: input.dateOfBirth }),
    ...(input.nationality !== undefined && { nationality: input.nationality }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.phone !== undefined && { phone: input.phone }),
    // The address is replaced whole: a new address must not inherit line2 from the old one.
    ...(input.address !== undefined && { address: { ...input.address, line2: input.address.line2 ?? null } }),
  };
  const { accountId } = currentScope();
  return inTransaction(async () => {
    // The account's row held: of two first writes at once, the second finds the profile the first
    // made and updates it (Prisma's upsert looks first, then inserts; both would insert).
    await lockRow("Account", accountId, "change");
    const before = presentApplicantProfile(await tenantDb().applicantProfile.findFirst());
    const row = await tenantDb().applicantProfile.upsert({
      where: { accountId },
      create: { accountId, ...data },
      update: data,
    });
    const profile = presentApplicantProfile(row);
    // An update that changes no field is no change: no event.
    const withoutTime = ({ updatedAt: _, ...rest }: typeof profile) => rest;
    if (!isDeepStrictEqual(withoutTime(before), withoutTime(profile)))
      await emitResourceEvent("kyc.profile.updated", applicantProfileSchema, profile);
    return profile;
  });
}
