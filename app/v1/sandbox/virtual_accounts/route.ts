import { sandboxCreateVirtualAccountEndpoint } from "@/lib/virtual-accounts/endpoints";
import { createVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: open a virtual account (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sandboxCreateVirtualAccountEndpoint, async ({ body }) => createVirtualAccount(body)),
});
