import { sandboxCreateTransferEndpoint } from "@/lib/transfers/endpoints";
import { createTransfer } from "@/lib/transfers/transfers";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: create a pending transfer to a saved recipient (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sandboxCreateTransferEndpoint, async ({ body }) => createTransfer(body)),
});
