import { deactivateVirtualAccountEndpoint } from "@/lib/virtual-accounts/endpoints";
import { deactivateVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE: deactivate the virtual account named by id or key (it stops accepting pay-ins).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(deactivateVirtualAccountEndpoint, async ({ params, audit }) => {
    const account = await deactivateVirtualAccount({ idOrKey: params.idOrKey });
    audit.targetId = account.id;
    return account;
  }),
});
