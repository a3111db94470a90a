import { getTransferEndpoint } from "@/lib/transfers/endpoints";
import { getTransfer } from "@/lib/transfers/transfers";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one transfer of the account.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getTransferEndpoint, async ({ params }) => getTransfer({ id: params.id })),
});
