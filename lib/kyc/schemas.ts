import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { jsonNames, jsonOf } from "@/lib/db/json";
import type { ApplicantProfile, Beneficiary, KycSubmission } from "@/lib/generated/prisma/client";
import { text } from "@/lib/contract/text";
import { normalizeIp } from "@/lib/net/ip";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { isCountryCode } from "@/lib/kyc/countries";
import { idSchema } from "@/lib/ids/schema";

// The agreement body, shared by the route and the dashboard's agreement form.

export const ipAddressSchema = text()
  .max(64, "must be an IPv4 or IPv6 address")
  .transform((text, context) => {
    const ip = normalizeIp(text);
    if (ip === null) {
      context.addIssue({
        code: "custom",
        message: "must be an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8::1",
      });
      return z.NEVER;
    }
    return ip;
  })
  .meta({ description: "The applicant's IP address, stored canonical (IPv4-mapped IPv6 becomes IPv4)." });

export const acceptAgreementInput = z
  .object({
    documentSetId: text()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1-128 characters of letters, digits and . _ : -")
      .meta({ description: "The agreement document set being accepted." }),
    ipAddress: ipAddressSchema.nullish(),
  })
  .meta({ id: "AcceptAgreementInput" });

export const agreementSchema = z
  .object({
    submissionId: z.string(),
    documentSetId: z.string(),
    ipAddress: z.string().nullable(),
    acceptedAt: z.iso.datetime(),
  })
  .meta({ id: "AgreementAcceptance" });

export function presentAgreement(row: {
  submissionId: string;
  documentSetId: string;
  ipAddress: string | null;
  acceptedAt: Date;
}) {
  return {
    submissionId: row.submissionId,
    documentSetId: row.documentSetId,
    ipAddress: row.ipAddress,
    acceptedAt: row.acceptedAt,
  };
}

// Shared by the API and the dashboard's forms: keep this file free of server-only imports
// (no database, no node: modules), so a client component can import it.

export const submissionTypes = ["individual", "business"] as const;
export const submissionStatuses = ["draft", "submitted", "approved", "rejected"] as const;
export const beneficiaryTypes = ["individual", "business"] as const;
export const beneficiaryRoles = ["ubo", "director", "shareholder", "representative"] as const;
const isBeneficiaryRole = (value: string): value is (typeof beneficiaryRoles)[number] =>
  (beneficiaryRoles as readonly string[]).includes(value);
export const MAX_BENEFICIARIES = 50;

/** ISO 3166-1 alpha-2, accepted in either case and stored upper-case. */
export const countryCodeSchema = text()
  .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 country code such as DE")
  .toUpperCase()
  .refine(isCountryCode, "is not an ISO 3166-1 alpha-2 country code")
  .meta({ description: "ISO 3166-1 alpha-2 country code, e.g. `DE`; returned upper-case." });

export const submissionParams = z.object({ submissionId: idSchema("sub") });

export const kycSubmissionSchema = z
  .object({
    id: z.string(),
    type: z.enum(submissionTypes),
    status: z.enum(submissionStatuses),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "KycSubmission" });

export const beneficiarySchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    type: z.enum(beneficiaryTypes),
    country: z.string().meta({ description: "ISO 3166-1 alpha-2." }),
    roles: z.array(z.enum(beneficiaryRoles)),
    shareSize: z.number().meta({ description: "Ownership share in percent, 0-100." }),
  })
  .meta({ id: "Beneficiary" });

export const kycSubmissionWithBeneficiariesSchema = kycSubmissionSchema
  .extend({ beneficiaries: z.array(beneficiarySchema) })
  .meta({ id: "KycSubmissionWithBeneficiaries" });

const ownershipFields = {
  beneficiaryCount: z.number().int().meta({ description: "How many beneficial owners the submission names." }),
  totalShare: z
    .number()
    .meta({ description: "Sum of the owners' `shareSize`, in percent (a complete ownership adds up to 100)." }),
};

export const kycSubmissionSummarySchema = kycSubmissionSchema
  .extend(ownershipFields)
  .meta({ id: "KycSubmissionSummary" });

export const kycSubmissionSummaryPageSchema = pageSchemaOf(kycSubmissionSummarySchema, "KycSubmissionSummaryPage");

export const kycSubmissionDetailSchema = kycSubmissionSchema
  .extend({
    ...ownershipFields,
    beneficiaries: z.array(beneficiarySchema).meta({ description: "Largest `shareSize` first." }),
    agreements: z.array(agreementSchema).meta({ description: "Accepted agreement document sets, oldest first." }),
  })
  .meta({ id: "KycSubmissionDetail" });

export const listKycSubmissionsQuery = pageQuerySchema;

const rolesSchema = z
  .array(z.enum(beneficiaryRoles))
  .min(1, "must name at least one role")
  .refine((roles) => new Set(roles).size === roles.length, "must not repeat a role");

export const beneficiaryInput = z
  .object({
    type: z.enum(beneficiaryTypes),
    country: countryCodeSchema,
    roles: rolesSchema,
    shareSize: z
      .number()
      .min(0, "must be at least 0")
      .max(100, "must be at most 100")
      .meta({ description: "Percent, 0-100." }),
    name: text().trim().min(1, "must not be empty").max(200).optional(),
  })
  .meta({ id: "BeneficiaryInput" });

/** Rounded to a millionth of a percent so that 33.33 + 33.33 + 33.34 adds up to exactly 100. */
export const sumShares = (shares: number[]) => Math.round(shares.reduce((sum, share) => sum + share * 1e6, 0)) / 1e6;

export const createKycSubmissionInput = z
  .object({
    type: z.enum(submissionTypes),
    beneficiaries: z
      .array(beneficiaryInput)
      .max(MAX_BENEFICIARIES, `may hold at most ${MAX_BENEFICIARIES} beneficiaries`)
      .default([])
      .refine((list) => sumShares(list.map((item) => item.shareSize)) <= 100, {
        message: "shareSize values must add up to at most 100",
        // Only once every share is itself valid: a single 100.5 is that entry's error, not the list's.
        when: (payload) => payload.issues.length === 0,
      }),
  })
  .meta({ id: "CreateKycSubmissionInput" });

export type CreateKycSubmissionInput = z.input<typeof createKycSubmissionInput>;

// --- Applicant profile ---------------------------------------------------------------------------

const EARLIEST_BIRTH_DATE = "1900-01-01";

/** Today's date in UTC as YYYY-MM-DD (ISO dates compare correctly as strings). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

export const dateOfBirthSchema = z.iso
  .date({ message: "must be a real calendar date written YYYY-MM-DD" })
  .refine((value) => value < todayUtc(), "must be in the past")
  .refine((value) => value >= EARLIEST_BIRTH_DATE, `must not be before ${EARLIEST_BIRTH_DATE}`)
  .meta({ description: "YYYY-MM-DD, a real date before today (UTC) and not before 1900-01-01." });

const personName = text().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

export const addressSchema = z
  .object({
    line1: text().trim().min(1, "must not be empty").max(200),
    line2: text().trim().max(200).nullish(),
    city: text().trim().min(1, "must not be empty").max(100),
    postalCode: text().trim().min(1, "must not be empty").max(20),
    country: countryCodeSchema,
  })
  .strict()
  .meta({ id: "Address" });

export type Address = z.output<typeof addressSchema>;

/**
 * A partial update of the applicant profile: fields left out keep their value; `address`, when
 * given, replaces the stored address whole. Unknown fields are refused rather than silently
 * dropped, so a typo ("lastname") is a 422 and not a lost update.
 */
export const updateProfileInput = z
  .object({
    firstName: personName.optional(),
    lastName: personName.optional(),
    dateOfBirth: dateOfBirthSchema.optional(),
    nationality: countryCodeSchema.optional(),
    email: z.email("must be an e-mail address").max(254).optional(),
    phone: text()
      .regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 number such as +4915112345678")
      .optional(),
    address: addressSchema.optional(),
  })
  .strict()
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "provide at least one field",
  })
  .meta({ id: "UpdateProfileInput" });

export type UpdateProfileInput = z.output<typeof updateProfileInput>;

export const applicantProfileSchema = z
  .object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    dateOfBirth: z.string().nullable(),
    nationality: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z
      .object({
        line1: z.string(),
        line2: z.string().nullable(),
        city: z.string(),
        postalCode: z.string(),
        country: z.string(),
      })
      .nullable(),
    updatedAt: z.iso.datetime().nullable().meta({ description: "Null until the profile is first updated." }),
  })
  .meta({ id: "ApplicantProfile" });

// --- Presenters ----------------------------------------------------------------------------------

export const presentKycSubmission = presenterOf(kycSubmissionSchema);

/** A submission with how many owners it names and what their shares add up to. */
export function presentKycSubmissionSummary(row: KycSubmission & { beneficiaries: { shareSize: string }[] }) {
  return {
    ...presentKycSubmission(row),
    beneficiaryCount: row.beneficiaries.length,
    totalShare: sumShares(row.beneficiaries.map((beneficiary) => Number(beneficiary.shareSize))),
  };
}

export function presentBeneficiary(row: Beneficiary) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    country: row.country,
    roles: jsonNames(row.roles, isBeneficiaryRole),
    shareSize: Number(row.shareSize),
  };
}

/** Largest owners first, then in the order they were recorded: a stable order a reviewer reads top-down. */
export function presentBeneficiaries(rows: Beneficiary[]) {
  return [...rows]
    .sort(
      (a, b) =>
        Number(b.shareSize) - Number(a.shareSize) ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map(presentBeneficiary);
}

/** An address as stored (addressSchema's output). */
const storedAddress = z.object({
  line1: z.string(),
  line2: z.string().nullish(),
  city: z.string(),
  postalCode: z.string(),
  country: z.string(),
});

export function presentApplicantProfile(row: ApplicantProfile | null) {
  const stored = row?.address ? storedAddress.safeParse(jsonOf(row.address)) : null;
  const address = stored?.success ? stored.data : null;
  return {
    firstName: row?.firstName ?? null,
    lastName: row?.lastName ?? null,
    dateOfBirth: row?.dateOfBirth ?? null,
    nationality: row?.nationality ?? null,
    email: row?.email ?? null,
    phone: row?.phone ?? null,
    address: address ? { ...address, line2: address.line2 ?? null } : null,
    updatedAt: row?.updatedAt ?? null,
  };
}
