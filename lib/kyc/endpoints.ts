import { z } from "zod";
import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import {
  acceptAgreementInput,
  agreementSchema,
  applicantProfileSchema,
  beneficiarySchema,
  createKycSubmissionInput,
  kycSubmissionDetailSchema,
  kycSubmissionSummaryPageSchema,
  kycSubmissionWithBeneficiariesSchema,
  listKycSubmissionsQuery,
  submissionParams,
  updateProfileInput,
} from "@/lib/kyc/schemas";

const define = endpointGroup({ tag: "KYC", auth: "any" });

export const acceptAgreementEndpoint = define("POST /v1/kyc/submissions/{submissionId}/agreements", {
  summary: "Accept an agreement document set for a KYC submission",
  description:
    "Records the applicant's acceptance of `documentSetId`, with their IP address when given. " +
    "Each document set is accepted once per submission: a second acceptance answers 409.",
  permission: "kyc:write",
  params: submissionParams,
  body: acceptAgreementInput,
  response: agreementSchema,
  status: 201,
  errors: [409],
  action: "kyc.accept_agreement",
  auditDetails: (body: z.output<typeof acceptAgreementInput>) => ({ documentSetId: body.documentSetId }),
});

export const listBeneficiariesEndpoint = define("GET /v1/kyc/submissions/{submissionId}/beneficiaries", {
  summary: "List a KYC submission's beneficial owners",
  description: "A plain array, largest `shareSize` first.",
  permission: "kyc:read",
  params: submissionParams,
  response: z.array(beneficiarySchema),
});

export const listKycSubmissionsEndpoint = define("GET /v1/kyc/submissions", {
  summary: "List KYC submissions",
  description:
    "A page of the account's KYC submissions, newest first by default. Each names how many beneficial owners it has " +
    "(`beneficiaryCount`) and what their shares add up to (`totalShare`, percent), so incomplete ownership shows in the list.",
  permission: "kyc:read",
  query: listKycSubmissionsQuery,
  response: kycSubmissionSummaryPageSchema,
});

export const getKycSubmissionEndpoint = define("GET /v1/kyc/submissions/{submissionId}", {
  summary: "Get a KYC submission with its beneficial owners and accepted agreements",
  description:
    "`beneficiaries` as in the beneficiaries listing (largest `shareSize` first); `agreements` oldest first.",
  permission: "kyc:read",
  params: submissionParams,
  response: kycSubmissionDetailSchema,
});

export const getProfileEndpoint = define("GET /v1/kyc/profile", {
  summary: "Get the applicant profile",
  description:
    "The account's KYC applicant, in the shape `POST /v1/kyc/update_profile` answers; every field null before the first update.",
  permission: "kyc:read",
  response: applicantProfileSchema,
});

export const updateProfileEndpoint = define("POST /v1/kyc/update_profile", {
  summary: "Update the applicant profile",
  description:
    "A partial update of the account's KYC applicant: fields left out keep their value, `address` when given " +
    "replaces the stored address whole, unknown fields answer 422. Answers the whole profile (unset fields null).",
  permission: "kyc:write",
  body: updateProfileInput,
  response: applicantProfileSchema,
  action: "kyc.update_profile",
  // Which fields changed, never their values: the audit trail is no place for personal data.
  auditDetails: (body: z.output<typeof updateProfileInput>) => ({ fields: Object.keys(body).sort() }),
});

export const createSandboxKycSubmissionEndpoint = defineSandbox("POST /v1/sandbox/kyc/submissions", {
  summary: "Create a submitted KYC submission with its beneficial owners",
  description:
    "Sandbox only. Up to 50 beneficiaries; each names at least one role, and their `shareSize` values add up to at most 100.",
  body: createKycSubmissionInput,
  response: kycSubmissionWithBeneficiariesSchema,
  status: 201,
  action: "sandbox.kyc_submission.create",
});
