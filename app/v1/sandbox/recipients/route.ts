import { sandboxCreateRecipientEndpoint } from "@/lib/recipients/endpoints";
import { createRecipient } from "@/lib/recipients/recipients";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: save a recipient (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sandboxCreateRecipientEndpoint, async ({ body }) => createRecipient(body)),
});
