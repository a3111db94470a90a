"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type { applicantProfileSchema, kycSubmissionDetailSchema, kycSubmissionSummarySchema } from "@/lib/kyc/schemas";

export type KycSubmissionSummary = z.output<typeof kycSubmissionSummarySchema>;
export type KycSubmissionDetail = z.output<typeof kycSubmissionDetailSchema>;
export type Beneficiary = KycSubmissionDetail["beneficiaries"][number];
export type ApplicantProfile = z.output<typeof applicantProfileSchema>;

export const kycSubmissionKey = (id: string) => ["kyc-submission", id] as const;
export const applicantProfileKey = ["kyc-profile"] as const;

export function useKycSubmission(id: string) {
  return useQuery({
    queryKey: kycSubmissionKey(id),
    queryFn: () => api<KycSubmissionDetail>(`/v1/kyc/submissions/${encodeURIComponent(id)}`),
  });
}

export function useApplicantProfile() {
  return useQuery({ queryKey: applicantProfileKey, queryFn: () => api<ApplicantProfile>("/v1/kyc/profile") });
}
