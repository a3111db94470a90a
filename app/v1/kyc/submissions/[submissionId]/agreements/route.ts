import { acceptAgreementEndpoint } from "@/lib/kyc/endpoints";
import { acceptAgreement } from "@/lib/kyc/submissions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: record the applicant's acceptance of an agreement document set.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(acceptAgreementEndpoint, async ({ params, body }) =>
    acceptAgreement({ submissionId: params.submissionId, ...body }),
  ),
});
