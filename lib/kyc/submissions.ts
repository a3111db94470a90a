import { createOrConflict, inTransaction } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { DomainError, notFound } from "@/lib/errors";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import {
  agreementSchema,
  createKycSubmissionInput,
  type CreateKycSubmissionInput,
  kycSubmissionWithBeneficiariesSchema,
  presentAgreement,
  presentBeneficiaries,
  presentKycSubmission,
  presentKycSubmissionSummary,
} from "@/lib/kyc/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Every function here runs inside a tenant scope: tenantDb() confines the queries to the scope's
// account, so another account's submission is simply not found (404, never 403).

const beneficiaryId = () => newId("ben");
const agreementId = () => newId("agr");

/** The scope's submission, or 404. */
export async function findKycSubmission(submissionId: string) {
  const row = await tenantDb().kycSubmission.findUnique({ where: { id: submissionId } });
  if (!row) throw notFound("KYC submission");
  return row;
}

/**
 * Records a submitted KYC submission with its beneficial owners, as the onboarding flow would (the
 * sandbox and the demo seed use it). Input is validated here too, so the seed cannot store what the API would refuse.
 */
export async function createKycSubmission(input: CreateKycSubmissionInput) {
  const { type, beneficiaries } = createKycSubmissionInput.parse(input);
  const accountId = scopeAccountId();
  // The owners through their own delegate, not as a nested create, which tenancy refuses (it could not check their account).
  const { row, owners } = await inTransaction(async () => {
    const row = await tenantDb().kycSubmission.create({
      data: { id: newId("sub"), accountId, type, status: "submitted" },
    });
    const owners = await tenantDb().beneficiary.createManyAndReturn({
      data: beneficiaries.map((beneficiary) => ({
        id: beneficiaryId(),
        accountId,
        submissionId: row.id,
        name: beneficiary.name ?? null,
        type: beneficiary.type,
        country: beneficiary.country,
        roles: beneficiary.roles,
        shareSize: String(beneficiary.shareSize),
      })),
    });
    return { row, owners };
  });
  const submission = { ...presentKycSubmission(row), beneficiaries: presentBeneficiaries(owners) };
  await emitResourceEvent("kyc.submission.created", kycSubmissionWithBeneficiariesSchema, submission);
  return submission;
}

/** A page of the scope's submissions, each with its owner count and the sum of their shares. */
export async function listKycSubmissions(query: PageQuery) {
  const page = await paginate(query, (args) =>
    tenantDb().kycSubmission.findMany({ ...args, include: { beneficiaries: { select: { shareSize: true } } } }),
  );
  return { ...page, items: page.items.map(presentKycSubmissionSummary) };
}

/** One of the scope's submissions with its beneficial owners (largest share first) and accepted agreements (oldest first). */
export async function getKycSubmission({ submissionId }: { submissionId: string }) {
  const row = await tenantDb().kycSubmission.findUnique({
    where: { id: submissionId },
    include: { beneficiaries: true, agreements: { orderBy: [{ acceptedAt: "asc" }, { id: "asc" }] } },
  });
  if (!row) throw notFound("KYC submission");
  return {
    ...presentKycSubmissionSummary(row),
    beneficiaries: presentBeneficiaries(row.beneficiaries),
    agreements: row.agreements.map(presentAgreement),
  };
}

export async function listBeneficiaries({ submissionId }: { submissionId: string }) {
  const submission = await findKycSubmission(submissionId);
  const rows = await tenantDb().beneficiary.findMany({ where: { submissionId: submission.id } });
  return presentBeneficiaries(rows);
}

/** Records that the applicant accepted a document set; each set is accepted once per submission. */
export async function acceptAgreement({
  submissionId,
  documentSetId,
  ipAddress,
}: {
  submissionId: string;
  documentSetId: string;
  /** Already normalised (see ipAddressSchema); null when the caller did not say. */
  ipAddress?: string | null;
}) {
  const submission = await findKycSubmission(submissionId);
  const conflict = () =>
    new DomainError("conflict", `Document set ${documentSetId} was already accepted for submission ${submission.id}`, {
      documentSetId: "already accepted for this submission",
    });
  const row = await createOrConflict(
    () =>
      tenantDb().agreement.create({
        data: {
          id: agreementId(),
          accountId: scopeAccountId(),
          submissionId: submission.id,
          documentSetId,
          ipAddress: ipAddress ?? null,
        },
      }),
    conflict,
  );
  const agreement = presentAgreement(row);
  await emitResourceEvent("kyc.agreement.accepted", agreementSchema, agreement);
  return agreement;
}
