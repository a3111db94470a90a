import { createSandboxKycSubmissionEndpoint } from "@/lib/kyc/endpoints";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: create a submitted KYC submission with its beneficial owners (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(createSandboxKycSubmissionEndpoint, async ({ body }) => createKycSubmission(body)),
});
