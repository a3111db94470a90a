import { updateProfileEndpoint } from "@/lib/kyc/endpoints";
import { updateApplicantProfile } from "@/lib/kyc/profile";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: partially update the account's applicant profile; answers the whole profile.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(updateProfileEndpoint, async ({ body, scope, audit }) => {
    audit.targetId = scope.accountId;
    return updateApplicantProfile(body);
  }),
});
