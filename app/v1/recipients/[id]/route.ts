import { deleteRecipientEndpoint } from "@/lib/recipients/endpoints";
import { deleteRecipient } from "@/lib/recipients/recipients";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE: delete a saved recipient (no new transfers to it; it answers 404 afterwards).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(deleteRecipientEndpoint, async ({ params }) => deleteRecipient({ id: params.id })),
});
