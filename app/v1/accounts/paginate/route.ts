import { pageAccounts } from "@/lib/accounts/accounts";
import { pageAccountsEndpoint } from "@/lib/accounts/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the platform's accounts, one cursor page at a time.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(pageAccountsEndpoint, async ({ query }) => pageAccounts(query)),
});
