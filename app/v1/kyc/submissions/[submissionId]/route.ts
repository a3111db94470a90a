import { getKycSubmissionEndpoint } from "@/lib/kyc/endpoints";
import { getKycSubmission } from "@/lib/kyc/submissions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one KYC submission with its beneficial owners and accepted agreements.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getKycSubmissionEndpoint, async ({ params }) => getKycSubmission({ submissionId: params.submissionId })),
});
