import { listVirtualAccountsEndpoint } from "@/lib/virtual-accounts/endpoints";
import { listVirtualAccounts } from "@/lib/virtual-accounts/virtual-accounts";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of the account's virtual accounts, optionally only the active or only the deactivated ones.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listVirtualAccountsEndpoint, async ({ query }) => listVirtualAccounts(query)),
});
