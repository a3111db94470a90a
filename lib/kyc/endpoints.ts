import { z } from "zod";
import { endpoint } from "@/lib/http/endpoint";
import { acceptAgreementInput, agreementSchema, applicantProfileSchema, beneficiarySchema, createKycSubmissionInput, kycSubmissionDetailSchema, kycSubmissionSummaryPageSchema, kycSubmissionWithBeneficiariesSchema, listKycSubmissionsQuery, submissionParams, updateProfileInput } from "@/lib/kyc/schemas";

const tag = "KYC";

export const acceptAgreementEndpoint = endpoint({
  method: "POST",
  path: "/v1/kyc/submissions/{submissionId}/agreements",
  tag,
  summary: "Accept an agreement document set for a KYC submission",
  description:
    "Records the applicant's acceptance of `documentSetId`, with their IP address when given. " +
    "Each document set is accepted once per submission: a second acceptance answers 409.",
  auth: "any",
  permission: "kyc:write",
  params: submissionParams,
  body: acceptAgreementInput,
  response: agreementSchema,
  status: 201,
  errors: [409],
  action: "kyc.accept_agreement",
  auditDetails: (body: z.output<typeof acceptAgreementInput>) => ({ documentSetId: body.documentSetId }),
});

export const listBeneficiariesEndpoint = endpoint({
  method: "GET",
  path: "/v1/kyc/submissions/{submissionId}/beneficiaries",
  tag,
  summary: "List a KYC submission's beneficial owners",
  description: "A plain array, largest `shareSize` first.",
  auth: "any",
  permission: "kyc:read",
  params: submissionParams,
  response: z.array(beneficiarySchema),
  errors: [],
});

export const listKycSubmissionsEndpoint = endpoint({
  method: "GET",
  path: "/v1/kyc/submissions",
  tag,
  summary: "List KYC submissions",
  description:
    "A page of the account's KYC submissions, newest first by default. Each names how many beneficial owners it has " +
    "(`beneficiaryCount`) and what their shares add up to (`totalShare`, percent), so incomplete ownership shows in the list.",
  auth: "any",
  permission: "kyc:read",
  query: listKycSubmissionsQuery,
  response: kycSubmissionSummaryPageSchema,
  errors: [],
});

export const getKycSubmissionEndpoint = endpoint({
  method: "GET",
  path: "/v1/kyc/submissions/{submissionId}",
  tag,
  summary: "Get a KYC submission with its beneficial owners and accepted agreements",
  description: "`beneficiaries` as in the beneficiaries listing (largest `shareSize` first); `agreements` oldest first.",
  auth: "any",
  permission: "kyc:read",
  params: submissionParams,
  response: kycSubmissionDetailSchema,
  errors: [],
});

export const getProfileEndpoint = endpoint({
  method: "GET",
  path: "/v1/kyc/profile",
  tag,
  summary: "Get the applicant profile",
  description: "The account's KYC applicant, in the shape `POST /v1/kyc/update_profile` answers; every field null before the first update.",
  auth: "any",
  permission: "kyc:read",
  response: applicantProfileSchema,
  errors: [],
});

export const updateProfileEndpoint = endpoint({
  method: "POST",
  path: "/v1/kyc/update_profile",
  tag,
  summary: "Update the applicant profile",
  description:
    "A partial update of the account's KYC applicant: fields left out keep their value, `address` when given " +
    "replaces the stored address whole, unknown fields answer 422. Answers the whole profile (unset fields null).",
  auth: "any",
  permission: "kyc:write",
  body: updateProfileInput,
  response: applicantProfileSchema,
  errors: [],
  action: "kyc.update_profile",
  // Which fields changed, never their values: the audit trail is no place for personal data.
  auditDetails: (body: z.output<typeof updateProfileInput>) => ({ fields: Object.keys(body).sort() }),
});

export const createSandboxKycSubmissionEndpoint = endpoint({
  method: "POST",
  path: "/v1/sandbox/kyc/submissions",
  tag: "Sandbox",
  summary: "Create a submitted KYC submission with its beneficial owners",
  description: "Sandbox only. Up to 50 beneficiaries; each names at least one role, and their `shareSize` values add up to at most 100.",
  auth: "any",
  permission: "sandbox:write",
  sandbox: true,
  body: createKycSubmissionInput,
  response: kycSubmissionWithBeneficiariesSchema,
  status: 201,
  errors: [],
  action: "sandbox.kyc_submission.create",
});
