import { listBeneficiariesEndpoint } from "@/lib/kyc/endpoints";
import { listBeneficiaries } from "@/lib/kyc/submissions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the submission's beneficial owners.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listBeneficiariesEndpoint, async ({ params }) => listBeneficiaries({ submissionId: params.submissionId })),
});
