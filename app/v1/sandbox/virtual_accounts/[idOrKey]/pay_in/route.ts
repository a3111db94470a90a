import { sandboxPayInEndpoint } from "@/lib/virtual-accounts/endpoints";
import { payInToVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: record a completed pay-in to the virtual account named by id or key (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sandboxPayInEndpoint, async ({ params, body, audit }) => {
    const transaction = await payInToVirtualAccount({ idOrKey: params.idOrKey, ...body });
    audit.targetId = transaction.virtualAccountId ?? undefined;
    return transaction;
  }),
});
