import { sandboxCreateRecipientEndpoint } from "@/lib/recipients/endpoints";
import { createRecipient } from "@/lib/recipients/recipients";
import { methods, route } from "@/lib/http/route";

// POST: save a recipient (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(sandboxCreateRecipientEndpoint, async ({ body }) => createRecipient(body)),
});
