import { getProfileEndpoint } from "@/lib/kyc/endpoints";
import { getApplicantProfile } from "@/lib/kyc/profile";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the account's applicant profile (every field null before the first update).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getProfileEndpoint, async () => getApplicantProfile()),
});
