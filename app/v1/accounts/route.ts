import { listAccounts } from "@/lib/accounts/accounts";
import { listAccountsEndpoint } from "@/lib/accounts/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: every account of the caller's platform, oldest first.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listAccountsEndpoint, async () => listAccounts()),
});
