"use client";

import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { getKycSubmissionEndpoint, getProfileEndpoint } from "@/lib/kyc/endpoints";

export type KycSubmissionDetail = ResponseOf<typeof getKycSubmissionEndpoint>;
export type Beneficiary = KycSubmissionDetail["beneficiaries"][number];
export type ApplicantProfile = ResponseOf<typeof getProfileEndpoint>;

export function useKycSubmission(submissionId: string) {
  return useApiQuery(getKycSubmissionEndpoint, { params: { submissionId } });
}

export function useApplicantProfile() {
  return useApiQuery(getProfileEndpoint);
}
