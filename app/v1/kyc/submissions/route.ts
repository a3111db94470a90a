import { listKycSubmissionsEndpoint } from "@/lib/kyc/endpoints";
import { listKycSubmissions } from "@/lib/kyc/submissions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of the account's KYC submissions with owner counts and share totals.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listKycSubmissionsEndpoint, async ({ query }) => listKycSubmissions(query)),
});
